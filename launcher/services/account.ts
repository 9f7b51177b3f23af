import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { AuditedWrites } from '../../platform/db/audited-writes.js';
import { isDatabaseReady, openDatabase } from '../../platform/db/database.js';
import { startServiceHost } from '../../platform/http/service-host.js';
import { createOutbox } from '../../platform/outbox/outbox.js';
import { watchDatabasePool, watchOutbox } from '../../platform/metrics/database-metrics.js';
import { TOPICS } from '../../platform/queue/queue.js';
import { ACCOUNT_API } from '../../rest-facade/account/account.api.js';
import { ACCOUNT_ENTITIES } from '../../subgraphs/account/account-entities.js';
import { accountSubgraph } from '../../subgraphs/account/account.subgraph.js';
import { ACCOUNT_MIGRATIONS } from '../../subgraphs/account/migrations/index.js';
import type { AccountDependencies } from '../../subgraphs/account/account-dependencies.js';
import type { AccountServices } from '../../subgraphs/account/account-services.js';
import { ApiKeyService } from '../../subgraphs/account/api-keys/api-key.service.js';
import { BootstrapService } from '../../subgraphs/account/bootstrap.service.js';
import { CreditSpendService } from '../../subgraphs/account/credits/credit-spend.service.js';
import { GroupService } from '../../subgraphs/account/groups/group.service.js';
import {
  IdentityProviderCheck,
  PROVIDER_CHECK_TIMEOUT_MS,
} from '../../subgraphs/account/organizations/identity-provider-check.js';
import { OrganizationService } from '../../subgraphs/account/organizations/organization.service.js';
import { PaymentWebhookService } from '../../subgraphs/account/credits/payment-webhook.service.js';
import { ProvisioningService } from '../../subgraphs/account/users/provisioning.service.js';
import { UserService } from '../../subgraphs/account/users/user.service.js';
import type { PlatformContext, StartedService } from '../platform-context.js';
import { startService } from '../service-parts.js';

export const ACCOUNT_SCHEMA = 'account';
/** Durable consumer name of the account service on the `credits-spent` queue. */
export const CREDITS_CONSUMER = 'account-service';

/**
 * The account service: organizations, accounts, groups, API keys, credits. Its database,
 * outbox, `credits-spent` consumer, bootstrap administrator, REST paths and subgraph.
 */
export function startAccountService(platform: PlatformContext): Promise<StartedService> {
  const { settings, queue, clock } = platform;
  const logger = platform.logger.child({ service: 'account' });
  return startService(logger, async (parts) => {
    const orm = parts.add(
      await openDatabase({
        url: await platform.databaseUrl(),
        schema: ACCOUNT_SCHEMA,
        entities: ACCOUNT_ENTITIES,
        migrations: ACCOUNT_MIGRATIONS,
        logger,
      }),
      (database) => database.close(),
    );
    const outbox = parts.add(createOutbox(orm, queue, clock, logger), ({ relay }) => relay.stop());
    watchDatabasePool(platform.metrics, 'account', orm);
    watchOutbox(platform.metrics, 'account', orm);
    const auditLog = new AuditLog(clock);
    const deps: AccountDependencies = {
      orm,
      transactions: outbox.transactions,
      auditLog,
      writes: new AuditedWrites({ clock, auditLog }),
      clock,
      logger,
      credits: settings.credits,
    };
    const services: AccountServices = {
      organizations: new OrganizationService(
        deps,
        new IdentityProviderCheck({ resolver: platform.resolver, timeoutMs: PROVIDER_CHECK_TIMEOUT_MS }),
      ),
      users: new UserService(deps),
      groups: new GroupService(deps),
      apiKeys: new ApiKeyService(deps),
      provisioning: new ProvisioningService(deps),
      creditSpend: new CreditSpendService(deps),
      payments: new PaymentWebhookService(deps, settings.payments.webhookSecret),
      bootstrap: new BootstrapService(deps),
    };
    await services.bootstrap.apply(settings.bootstrapApiKey);
    const host = parts.add(
      await startServiceHost(
        {
          ...ACCOUNT_API,
          routes: ACCOUNT_API.routesFor(services),
          subgraph: accountSubgraph(services),
          readiness: async () => ({ database: await isDatabaseReady(orm, logger), queue: queue.isReady() }),
        },
        {
          host: settings.http.host,
          port: settings.http.ports.account,
          verifier: platform.verifier,
          logger,
          metrics: platform.metrics,
        },
      ),
      (running) => running.close(),
    );
    // Last: messages are handled only by a service that started.
    queue.consume(TOPICS.creditsSpent, CREDITS_CONSUMER, (message) => services.creditSpend.record(message));
    return { url: host.url, graphqlUrl: `${host.url}/graphql` };
  });
}
