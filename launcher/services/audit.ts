import { openDatabase, isDatabaseReady } from '../../platform/db/database.js';
import { startServiceHost } from '../../platform/http/service-host.js';
import { watchDatabasePool } from '../../platform/metrics/database-metrics.js';
import { TOPICS } from '../../platform/queue/queue.js';
import { startPeriodicTask } from '../../platform/time/periodic-task.js';
import { AUDIT_API } from '../../rest-facade/audit/audit.api.js';
import { AuditEntry } from '../../subgraphs/audit/audit-entry.entity.js';
import { AuditSequence } from '../../subgraphs/audit/audit-sequence.entity.js';
import { ParkedMessage } from '../../subgraphs/audit/parked-message.entity.js';
import { auditSubgraph } from '../../subgraphs/audit/audit.subgraph.js';
import { AUDIT_MIGRATIONS } from '../../subgraphs/audit/migrations/index.js';
import { AUDIT_SCHEMA } from '../../subgraphs/audit/audit-entry.repository.js';
import { AuditService } from '../../subgraphs/audit/audit.service.js';
import type { PlatformContext, StartedService } from '../platform-context.js';
import { startService } from '../service-parts.js';

/** Durable consumer name of the audit service on the `audit-entries` queue. */
export const AUDIT_CONSUMER = 'audit-service';

export const AUDIT_ENTITIES = [AuditEntry, AuditSequence, ParkedMessage];

/** How often parked audit messages are tried again (decisions "Ids and versions"). */
const PARKED_RETRY_MS = 5 * 60_000;

/** The audit service: its database, its queue consumer, its REST paths and subgraph. */
export function startAuditService(platform: PlatformContext): Promise<StartedService> {
  const { settings, queue, clock } = platform;
  const logger = platform.logger.child({ service: 'audit' });
  return startService(logger, async (parts) => {
    const orm = parts.add(
      await openDatabase({
        url: await platform.databaseUrl(),
        schema: AUDIT_SCHEMA,
        entities: AUDIT_ENTITIES,
        migrations: AUDIT_MIGRATIONS,
        logger,
      }),
      (database) => database.close(),
    );
    watchDatabasePool(platform.metrics, 'audit', orm);
    const audit = new AuditService({ orm, clock, logger, authNotRequired: settings.audit.authNotRequired });
    const host = parts.add(
      await startServiceHost(
        {
          ...AUDIT_API,
          routes: AUDIT_API.routesFor(audit),
          subgraph: auditSubgraph(audit),
          readiness: async () => ({ database: await isDatabaseReady(orm, logger), queue: queue.isReady() }),
        },
        {
          host: settings.http.host,
          port: settings.http.ports.audit,
          verifier: platform.verifier,
          logger,
          metrics: platform.metrics,
        },
      ),
      (running) => running.close(),
    );
    // Last: messages are handled only by a service that started.
    queue.consume(TOPICS.auditEntries, AUDIT_CONSUMER, (message) => audit.store(message));
    parts.add(
      startPeriodicTask(
        'retrying parked audit messages',
        PARKED_RETRY_MS,
        async () => {
          const left = await audit.retryParked();
          if (left > 0)
            logger.error({ parked: left }, `${left} audit messages are parked and cannot be stored yet`);
        },
        logger,
      ),
      (task) => task.stop(),
    );
    return { url: host.url, graphqlUrl: `${host.url}/graphql` };
  });
}
