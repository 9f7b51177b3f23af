import { isDatabaseReady, openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { AUDIT_ENTITIES } from '../../launcher/services/audit.js';
import { AUDIT_MIGRATIONS } from '../../subgraphs/audit/migrations/index.js';
import { AUDIT_SCHEMA } from '../../subgraphs/audit/audit-entry.repository.js';
import { capturedLogger } from '../support/captured-logger.js';
import { createTestDatabase, dropTestDatabase, queryDatabase } from '../support/test-database.js';

const logger = createLogger('silent');
let database: { name: string; url: string };

beforeEach(async () => {
  database = await createTestDatabase();
});

afterEach(() => dropTestDatabase(database.name));

const openAudit = (url: string, log = logger): Promise<Database> =>
  openDatabase({
    url,
    schema: AUDIT_SCHEMA,
    entities: AUDIT_ENTITIES,
    migrations: AUDIT_MIGRATIONS,
    logger: log,
  });

describe('decisions "Migrations": replicas starting together migrate one at a time (an advisory lock per schema)', () => {
  it('five services opening the same fresh database at once all start, and each migration runs once', async () => {
    const opened = await Promise.allSettled(Array.from({ length: 5 }, () => openAudit(database.url)));
    const orms = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(opened.filter((result) => result.status === 'rejected')).toEqual([]);
      const applied = await queryDatabase<{ name: string }>(
        database.url,
        `select name from ${AUDIT_SCHEMA}.mikro_orm_migrations order by name`,
      );
      expect(applied.map((row) => row.name)).toEqual(AUDIT_MIGRATIONS.map((m) => m.name));
    } finally {
      await Promise.all(orms.map((orm) => orm.close()));
    }
  });
});

describe('spec 1.6 / issue 2 health: isDatabaseReady answers false when the database is away, and logs why', () => {
  it('answers true while connected, then false with the cause in the log once the database is gone', async () => {
    const { logger: captured, lines } = capturedLogger();
    const orm = await openAudit(database.url);
    try {
      expect(await isDatabaseReady(orm, captured)).toBe(true);
      await dropTestDatabase(database.name);
      expect(await isDatabaseReady(orm, captured)).toBe(false);
      expect(lines.some((line) => line.msg === 'the database is not reachable')).toBe(true);
    } finally {
      await orm.close();
    }
  });
});
