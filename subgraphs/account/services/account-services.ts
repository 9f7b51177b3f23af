import type { ApiKeyService } from './api-key.service.js';
import type { BootstrapService } from './bootstrap.service.js';
import type { CreditSpendService } from './credit-spend.service.js';
import type { GroupService } from './group.service.js';
import type { OrganizationService } from './organization.service.js';
import type { PaymentWebhookService } from './payment-webhook.service.js';
import type { ProvisioningService } from './provisioning.service.js';
import type { UserService } from './user.service.js';

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
