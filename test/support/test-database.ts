import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test PostgreSQL server (global-setup.ts): DATABASE_URL's, or the embedded one. */
export function testDatabaseServerUrl(): string {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_SERVER_URL is unset: run the tests with `npm test`');
  return serverUrl;
}

/** A new, empty database of its own on the test server; drop it with dropTestDatabase. */
export async function createTestDatabase(): Promise<{ name: string; url: string }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const serverUrl = testDatabaseServerUrl();
  await queryDatabase(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await queryDatabase(testDatabaseServerUrl(), `drop database if exists "${name}" with (force)`);
}

/** Runs one SQL statement on the database at `url` with a client of its own; the rows it answers. */
export async function queryDatabase<Row extends object = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
