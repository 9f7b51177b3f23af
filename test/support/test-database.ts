import { createScratchDatabase, dropScratchDatabase } from '../../platform/db/scratch-database.js';

export { queryDatabase } from '../../platform/db/scratch-database.js';

/** The test PostgreSQL server (global-setup.ts): DATABASE_URL's, or the embedded one. */
export function testDatabaseServerUrl(): string {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_SERVER_URL is unset: run the tests with `npm test`');
  return serverUrl;
}

/** A new, empty database of its own on the test server; drop it with dropTestDatabase. */
export function createTestDatabase(): Promise<{ name: string; url: string }> {
  return createScratchDatabase(testDatabaseServerUrl(), 't');
}

export function dropTestDatabase(name: string): Promise<void> {
  return dropScratchDatabase(testDatabaseServerUrl(), name);
}
