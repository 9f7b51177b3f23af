import { OutboxMessage } from '../../../platform/outbox/outbox-message.entity.js';
import { CreditSpend } from './credit-spend.entity.js';
import { GroupMember } from './group-member.entity.js';
import { Group } from './group.entity.js';
import { Organization } from './organization.entity.js';
import { PaymentEvent } from './payment-event.entity.js';
import { UserApiKey } from './user-api-key.entity.js';
import { UserIdentity } from './user-identity.entity.js';
import { User } from './user.entity.js';

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
