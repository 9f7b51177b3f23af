import { OutboxMessage } from '../../platform/outbox/outbox-message.entity.js';
import { CreditSpend } from './credits/credit-spend.entity.js';
import { GroupMember } from './groups/group-member.entity.js';
import { Group } from './groups/group.entity.js';
import { Organization } from './organizations/organization.entity.js';
import { PaymentEvent } from './credits/payment-event.entity.js';
import { UserApiKey } from './api-keys/user-api-key.entity.js';
import { UserIdentity } from './users/user-identity.entity.js';
import { User } from './users/user.entity.js';

/** Every entity of the account schema. */
export const ACCOUNT_ENTITIES = [
  Organization,
  User,
  UserIdentity,
  Group,
  GroupMember,
  UserApiKey,
  CreditSpend,
  PaymentEvent,
  OutboxMessage,
];
