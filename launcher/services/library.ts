import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { AccountClient } from '../../platform/clients/account-client.js';
import { CreditCostReader } from '../../platform/config/credit-costs.js';
import { CreditGate } from '../../platform/credits/credit-gate.js';
import { SpendAggregator } from '../../platform/credits/spend-aggregator.js';
import { AuditedWrites } from '../../platform/db/audited-writes.js';
import { isDatabaseReady, openDatabase } from '../../platform/db/database.js';
import { startServiceHost } from '../../platform/http/service-host.js';
import { createOutbox } from '../../platform/outbox/outbox.js';
import { watchDatabasePool, watchOutbox } from '../../platform/metrics/database-metrics.js';
import { LIBRARY_API } from '../../rest-facade/library/library.api.js';
import { AuthorNames } from '../../subgraphs/library/authors.js';
import { CertificateService } from '../../subgraphs/library/certificates/certificate.service.js';
import { DataKeys } from '../../subgraphs/library/secrets/data-keys.js';
import { sealPlainSecrets } from '../../subgraphs/library/secrets/plain-secrets.js';
import { ExportService } from '../../subgraphs/library/import-export/export.service.js';
import { LibraryChanges } from '../../subgraphs/library/resolution/library-changes.js';
import { ImportService } from '../../subgraphs/library/import-export/import.service.js';
import { ResolutionService } from '../../subgraphs/library/resolution/resolution.service.js';
import { RevisionedTransactions } from '../../subgraphs/library/resolution/revisions.js';
import { SnapshotCache } from '../../subgraphs/library/resolution/snapshot-cache.js';
import { LIBRARY_SCHEMA, type LibraryDependencies } from '../../subgraphs/library/library-dependencies.js';
import { LIBRARY_ENTITIES } from '../../subgraphs/library/library-entities.js';
import type { LibraryServices } from '../../subgraphs/library/library-services.js';
import { librarySubgraph } from '../../subgraphs/library/library.subgraph.js';
import { LIBRARY_MIGRATIONS } from '../../subgraphs/library/migrations/index.js';
import { VariableSetService } from '../../subgraphs/library/sets/variable-set.service.js';
import { TagGroupService } from '../../subgraphs/library/tag-groups/tag-group.service.js';
import { TagService } from '../../subgraphs/library/tag-groups/tag.service.js';
import { VariableService } from '../../subgraphs/library/variables/variable.service.js';
import type { PlatformContext, StartedService } from '../platform-context.js';
import { startService } from '../service-parts.js';

/**
 * The library service: tag groups, tags, library sets, variables and the organizations'
 * certificates. Its database, outbox, credit gate (balances from the account service, spend
 * published in aggregate), REST paths and subgraph.
 */
export function startLibraryService(platform: PlatformContext): Promise<StartedService> {
  const { settings, queue, clock, masterKey } = platform;
  const logger = platform.logger.child({ service: 'library' });
  if (!masterKey)
    throw new Error('the library service was started without the master key (launcher/system.ts loads it)');
  return startService(logger, async (parts) => {
    const orm = parts.add(
      await openDatabase({
        url: await platform.databaseUrl(),
        schema: LIBRARY_SCHEMA,
        entities: LIBRARY_ENTITIES,
        migrations: LIBRARY_MIGRATIONS,
        logger,
      }),
      (database) => database.close(),
    );
    const outbox = parts.add(createOutbox(orm, queue, clock, logger), ({ relay }) => relay.stop());
    watchDatabasePool(platform.metrics, 'library', orm);
    watchOutbox(platform.metrics, 'library', orm);
    // Stopped before the outbox (parts close in reverse): the last spend is written to it first.
    const spend = parts.add(new SpendAggregator(outbox.transactions, logger), (aggregator) =>
      aggregator.stop(),
    );
    const account = new AccountClient(() => platform.peerUrl('account'));
    const costs = new CreditCostReader(settings.sources.env, logger, settings.sources.overrides);
    const auditLog = new AuditLog(clock);
    const secrets = new DataKeys(masterKey);
    // Before anything is served: what an older version stored plain is sealed now.
    await sealPlainSecrets(orm, outbox.transactions, secrets, logger);
    const snapshots = new SnapshotCache(orm, secrets, logger);
    const changes = new LibraryChanges(queue, snapshots, logger);
    changes.listen();
    const credits = new CreditGate(account, spend, logger, {
      refused: platform.metrics.tally(
        'credits_refused_total',
        'Calls refused with 429 because the organization could not afford them, by service.',
        'library',
      ),
    });
    const deps: LibraryDependencies = {
      orm,
      transactions: new RevisionedTransactions(outbox.transactions, (change) => changes.changed(change)),
      auditLog,
      writes: new AuditedWrites({ clock, auditLog }),
      clock,
      logger,
      authors: new AuthorNames(account, logger),
      credits,
      costs: () => costs.current(),
      secrets,
    };
    const services: LibraryServices = {
      tagGroups: new TagGroupService(deps),
      tags: new TagService(deps),
      sets: new VariableSetService(deps),
      variables: new VariableService(deps),
      resolution: new ResolutionService({
        snapshots,
        credits,
        costs: deps.costs,
        answers: {
          hits: platform.metrics.tally(
            'library_answer_cache_hits_total',
            'Reads of variable values answered from an answer already made for this revision of the library.',
            'library',
          ),
          misses: platform.metrics.tally(
            'library_answer_cache_misses_total',
            'Reads of variable values whose answer was resolved anew.',
            'library',
          ),
        },
      }),
      certificates: new CertificateService({
        orm,
        transactions: outbox.transactions,
        writes: deps.writes,
        clock,
        masterKey,
        secrets,
        organizations: {
          exists: async (caller, id) => (await account.organization(caller.token, id)) !== null,
        },
      }),
      imports: new ImportService(deps),
      exports: new ExportService(deps),
    };
    const host = parts.add(
      await startServiceHost(
        {
          ...LIBRARY_API,
          routes: LIBRARY_API.routesFor(services),
          subgraph: librarySubgraph(services),
          readiness: async () => ({ database: await isDatabaseReady(orm, logger), queue: queue.isReady() }),
        },
        {
          host: settings.http.host,
          port: settings.http.ports.library,
          verifier: platform.verifier,
          logger,
          metrics: platform.metrics,
        },
      ),
      (running) => running.close(),
    );
    return { url: host.url, graphqlUrl: `${host.url}/graphql` };
  });
}
