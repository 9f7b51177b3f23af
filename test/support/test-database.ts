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
  await onServer(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await onServer(testDatabaseServerUrl(), (client) =>
    client.query(`drop database if exists "${name}" with (force)`),
  );
}

async function onServer(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
