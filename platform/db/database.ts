import { MikroORM, type EntitySchema } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
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
 * Migrations are listed explicitly (no folder discovery), each applied in a transaction.
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
  });
  const applied = await orm.migrator.up();
  if (applied.length > 0) log.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  return orm;
}

export async function isDatabaseReady(orm: Database): Promise<boolean> {
  try {
    return await orm.isConnected();
  } catch {
    return false;
  }
}
