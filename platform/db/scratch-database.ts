import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Databases made for one run and dropped after it, on a PostgreSQL server given by URL: a test
 * system's, a benchmark's.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await queryDatabase(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropScratchDatabase(serverUrl: string, name: string): Promise<void> {
  await queryDatabase(serverUrl, `drop database if exists "${name}" with (force)`);
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
