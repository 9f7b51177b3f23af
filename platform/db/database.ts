import { MikroORM, type EntitySchema } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from '../logging/logger.js';

export type Database = MikroORM;

export interface DatabaseOptions {
  url: string;
  /** The PostgreSQL schema that holds this service's tables; no service reads another's. */
  schema: string;
  // EntitySchema's type parameters differ per entity; MikroORM itself takes them as any.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: EntitySchema<any, any>[];
  migrations: { name: string; class: new (...args: never[]) => Migration }[];
  logger: Logger;
  poolSize?: number;
}

/**
 * Opens one service's database and brings its schema up to date before anything else runs.
 * Migrations are listed explicitly (no folder discovery), all applied in one transaction,
 * under an advisory lock of the schema: replicas starting together take turns, and those
 * after the first find nothing left to apply.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.logger.child({ schema: options.schema });
  const orm = await MikroORM.init({
    clientUrl: options.url,
    schema: options.schema,
    // MikroORM finds "the current transaction" through async context by this name; services
    // sharing a process must not find each other's.
    contextName: options.schema,
    entities: options.entities,
    extensions: [Migrator],
    migrations: {
      tableName: `${options.schema}.mikro_orm_migrations`,
      migrationsList: options.migrations.map((m) => ({ name: m.name, class: m.class as never })),
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: options.poolSize ?? 10 },
    // Every request and message forks its own EntityManager; touching the global one is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    logger: (message) => log.debug(message),
    // knex, under MikroORM, writes its own warnings (a pooled connection lost) to the console.
    driverOptions: {
      log: {
        warn: (message: unknown) => log.warn({ knex: message }, 'database driver warning'),
        error: (message: unknown) => log.error({ knex: message }, 'database driver error'),
        deprecate: (message: unknown) => log.debug({ knex: message }, 'database driver deprecation'),
        debug: (message: unknown) => log.debug({ knex: message }, 'database driver'),
      },
    },
  });
  try {
    const applied = await holdingMigrationLock(options.url, options.schema, () => orm.migrator.up());
    if (applied.length > 0) log.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  } catch (error) {
    await orm.close();
    throw error;
  }
  return orm;
}

/**
 * Runs `work` while holding the schema's migration lock, taken on a connection of its own
 * (a session lock: MikroORM's migrator uses connections of its pool). Ending that
 * connection releases the lock, even when `work` failed.
 */
async function holdingMigrationLock<T>(url: string, schema: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    return await work();
  } finally {
    await client.end();
  }
}

/** Whether the database answers; when it does not, the reason is logged (the health check says only no). */
export async function isDatabaseReady(orm: Database, logger: Logger): Promise<boolean> {
  const check = await orm.checkConnection();
  if (!check.ok) logger.warn({ reason: check.reason }, 'the database is not reachable');
  return check.ok;
}
