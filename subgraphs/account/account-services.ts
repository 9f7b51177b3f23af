import type { ApiKeyService } from './api-keys/api-key.service.js';
import type { BootstrapService } from './bootstrap.service.js';
import type { CreditSpendService } from './credits/credit-spend.service.js';
import type { GroupService } from './groups/group.service.js';
import type { OrganizationService } from './organizations/organization.service.js';
import type { PaymentWebhookService } from './credits/payment-webhook.service.js';
import type { ProvisioningService } from './users/provisioning.service.js';
import type { UserService } from './users/user.service.js';

/** The account service's use cases, as its adapters (REST, GraphQL, queue) see them. */
export interface AccountServices {
  organizations: OrganizationService;
  users: UserService;
  groups: GroupService;
  apiKeys: ApiKeyService;
  provisioning: ProvisioningService;
  creditSpend: CreditSpendService;
  payments: PaymentWebhookService;
  bootstrap: BootstrapService;
}
