import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { ACCOUNT_SCHEMA } from '../../launcher/services/account.js';
import { AUDIT_ENTITIES } from '../../launcher/services/audit.js';
import { ACCOUNT_ENTITIES } from '../../subgraphs/account/account-entities.js';
import { ACCOUNT_MIGRATIONS } from '../../subgraphs/account/migrations/index.js';
import { AUDIT_MIGRATIONS } from '../../subgraphs/audit/migrations/index.js';
import { AUDIT_SCHEMA } from '../../subgraphs/audit/audit-entry.repository.js';
import { LIBRARY_ENTITIES } from '../../subgraphs/library/library-entities.js';
import { LIBRARY_MIGRATIONS } from '../../subgraphs/library/migrations/index.js';
import { LIBRARY_SCHEMA } from '../../subgraphs/library/library-dependencies.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  // Only for its fresh database: the services under test are opened here directly.
  system = await startTestSystem({ processes: ['audit'] });
});

afterAll(() => system.stop());

const services = [
  { schema: AUDIT_SCHEMA, entities: AUDIT_ENTITIES, migrations: AUDIT_MIGRATIONS },
  { schema: ACCOUNT_SCHEMA, entities: ACCOUNT_ENTITIES, migrations: ACCOUNT_MIGRATIONS },
  { schema: LIBRARY_SCHEMA, entities: LIBRARY_ENTITIES, migrations: LIBRARY_MIGRATIONS },
];

describe('decisions "Migrations": the migrations build exactly the schema the entities declare', () => {
  it.each(services)(
    '$schema: after its migrations, the schema generator finds nothing to change',
    async ({ schema, entities, migrations }) => {
      let orm: Database | undefined;
      try {
        orm = await openDatabase({
          url: system.databaseUrl,
          schema,
          entities,
          migrations,
          logger: createLogger('silent'),
        });
        const changes = await orm.schema.getUpdateSchemaSQL({
          wrap: false,
          safe: false,
          dropTables: false,
          schema,
        });
        expect(changes.trim()).toBe('');
      } finally {
        await orm?.close();
      }
    },
  );
});
