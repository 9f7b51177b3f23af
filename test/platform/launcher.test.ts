import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { launch, type Launched, type LaunchOutput } from '../../launcher/launch.js';
import { inProcessQueueProblem, startSystem, type StartableProcess } from '../../launcher/system.js';
import { loadSettings } from '../../platform/config/settings.js';
import { createLogger } from '../../platform/logging/logger.js';
import { deleteStreams } from '../../platform/queue/nats-streams.js';
import { freePort } from '../support/free-port.js';
import { NatsServerProcess } from '../support/nats-server.js';
import { rsaKeyPair } from '../support/rsa-keys.js';
import { TempFolder } from '../support/temp-folder.js';
import { eventually } from '../support/eventually.js';
import {
  createTestDatabase,
  dropTestDatabase,
  queryDatabase,
  testDatabaseServerUrl,
} from '../support/test-database.js';

/** What launch wrote, as `npm start` would have printed it. */
function capturedOutput(): LaunchOutput & { stdout: string; stderr: string } {
  const output = {
    stdout: '',
    stderr: '',
    out: (text: string) => void (output.stdout += text),
    err: (text: string) => void (output.stderr += text),
  };
  return output;
}

let dataFolder: TempFolder;

beforeAll(() => {
  dataFolder = TempFolder.create('launcher-test');
});

afterAll(() => dataFolder.remove());

const baseEnv = (): NodeJS.ProcessEnv => ({
  LOG_LEVEL: 'silent',
  DATA_DIR: dataFolder.path,
  ACCOUNT_PORT: '0',
  AUDIT_PORT: '0',
  IDENTITY_PORT: '0',
  GATEWAY_PORT: '0',
  Jwt__PrivateKey: process.env.TEST_JWT_PRIVATE_KEY,
});

function running(launched: Launched): Exclude<Launched, { exitCode: number }> {
  if ('exitCode' in launched) throw new Error(`launch exited with ${launched.exitCode}`);
  return launched;
}

describe('CONTRACT 1 One service alone: `npm start -- <name>` checks its arguments', () => {
  it('an unknown name exits 2 with a message listing what can start', async () => {
    const output = capturedOutput();
    const launched = await launch(['acount'], baseEnv(), output);
    expect(launched).toEqual({ exitCode: 2 });
    expect(output.stderr).toBe(
      'Unknown service: acount. Choose from: audit, account, identity, library, gateway.\n',
    );
    expect(output.stdout).toBe('');
  });

  it('a bad setting exits 1 naming the setting', async () => {
    const output = capturedOutput();
    expect(await launch(['gateway'], { ...baseEnv(), GATEWAY_PORT: 'abc' }, output)).toEqual({ exitCode: 1 });
    expect(output.stderr).toContain('GATEWAY_PORT');
  });

  it('CONTRACT 1 Queue: a subset of services without NATS_URL is refused with a message naming NATS_URL', async () => {
    const output = capturedOutput();
    expect(await launch(['account'], baseEnv(), output)).toEqual({ exitCode: 1 });
    expect(output.stderr).toMatch(/^NATS_URL is not set/);
    expect(output.stderr).toContain('account alone');
  });
});

describe('CONTRACT 1 Queue: the in-process queue is valid only when every service runs in one process', () => {
  const settings = loadSettings({ env: {} });
  const withNats = loadSettings({ env: { NATS_URL: 'nats://127.0.0.1:4222' } });

  it.each<[StartableProcess[], boolean]>([
    [['audit', 'account', 'identity', 'library', 'gateway'], true],
    [['audit', 'account', 'identity', 'library'], true],
    [['audit', 'account', 'identity'], false],
    [['gateway'], true],
    [['account'], false],
    [['identity'], false],
    [['audit', 'gateway'], false],
    [['account', 'identity', 'gateway'], false],
  ])('%j without NATS_URL: allowed %s', (processes, allowed) => {
    expect(inProcessQueueProblem(processes, settings) === undefined).toBe(allowed);
    expect(inProcessQueueProblem(processes, withNats)).toBeUndefined();
  });
});

describe('CONTRACT 1 One service alone: `npm start -- <name>` starts it and prints its address when ready', () => {
  it('`npm start -- gateway` starts the gateway alone and prints its address', async () => {
    const output = capturedOutput();
    const launched = running(await launch(['gateway'], baseEnv(), output));
    try {
      await launched.ready;
      expect(Object.keys(launched.system.urls)).toEqual(['gateway']);
      expect(launched.system.platform).toBeUndefined();
      const url = launched.system.urls.gateway!;
      expect(output.stdout).toBe(`Ready:\n  gateway   ${url}\n`);
      expect((await fetch(`${url}/healthz/startup`)).status).toBe(200);
    } finally {
      await launched.system.stop();
    }
  });

  it('`npm start -- audit` with DATABASE_URL and NATS_URL starts the audit service alone, healthy', async () => {
    const database = await createTestDatabase();
    const nats = await NatsServerProcess.start({
      port: await freePort(),
      jetStreamStoreDir: dataFolder.path,
    });
    const output = capturedOutput();
    const env = { ...baseEnv(), DATABASE_URL: database.url, NATS_URL: nats.url, QUEUE_PREFIX: 'launcher-' };
    const launched = running(await launch(['audit'], env, output));
    try {
      await launched.ready;
      expect(Object.keys(launched.system.urls)).toEqual(['audit']);
      const url = launched.system.urls.audit!;
      expect(output.stdout).toBe(`Ready:\n  audit     ${url}\n`);
      expect((await fetch(`${url}/healthz/startup`)).status).toBe(200);
    } finally {
      await launched.system.stop();
      await deleteStreams(nats.url, 'launcher-');
      await nats.stop();
      await dropTestDatabase(database.name);
    }
  });
});

describe('CONTRACT 1 Signing key: the identity service, the signer, refuses to start without Jwt:PrivateKey', () => {
  it('production with only Jwt:PublicKey refuses to start identity, naming Jwt:PrivateKey', async () => {
    const settings = loadSettings({
      env: {},
      overrides: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        'Jwt:PublicKey': rsaKeyPair().publicKey,
        IDENTITY_PORT: 0,
        DATA_DIR: dataFolder.path,
      },
    });
    await expect(
      startSystem({ settings, processes: ['identity'], logger: createLogger('silent') }),
    ).rejects.toThrow(/^Jwt:PrivateKey: required by the identity service/);
  });

  it('the identity service alone starts no embedded PostgreSQL (it has no storage)', async () => {
    const ownData = TempFolder.create('launcher-identity');
    const settings = loadSettings({
      env: {},
      overrides: {
        LOG_LEVEL: 'silent',
        IDENTITY_PORT: 0,
        DATA_DIR: ownData.path,
        'Jwt:PrivateKey': process.env.TEST_JWT_PRIVATE_KEY,
      },
    });
    const system = await startSystem({ settings, processes: ['identity'], logger: createLogger('silent') });
    try {
      await system.whenReady();
      expect((await fetch(`${system.urls.identity!}/healthz/startup`)).status).toBe(200);
      expect(existsSync(join(ownData.path, 'postgres'))).toBe(false);
      expect(existsSync(join(ownData.path, 'postgres.password'))).toBe(false);
    } finally {
      await system.stop();
      ownData.remove();
    }
  });
});

describe('decisions "Master key": a process running the library refuses to start in production without Encryption:MasterKey', () => {
  it('rejects naming the setting, before any service starts', async () => {
    const ownData = TempFolder.create('launcher-master-key');
    try {
      const settings = loadSettings({
        env: {},
        overrides: {
          NODE_ENV: 'production',
          LOG_LEVEL: 'silent',
          DATA_DIR: ownData.path,
          'Jwt:PrivateKey': process.env.TEST_JWT_PRIVATE_KEY,
          LIBRARY_PORT: 0,
        },
      });
      await expect(
        startSystem({ settings, processes: ['library'], logger: createLogger('silent') }),
      ).rejects.toThrow(/^Encryption:MasterKey: required when NODE_ENV=production/);
      expect(existsSync(join(ownData.path, 'encryption-master-key'))).toBe(false);
      expect(existsSync(join(ownData.path, 'postgres'))).toBe(false);
    } finally {
      ownData.remove();
    }
  });
});

describe('decisions "The launcher and composition root": a service that fails to start closes what it opened (its database pool, its outbox relay)', () => {
  /** Connections to the database from anyone but the asker. */
  const connectionsTo = async (database: string): Promise<number> => {
    const [row] = await queryDatabase<{ count: string }>(
      testDatabaseServerUrl(),
      'select count(*) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return Number(row!.count);
  };

  it.each([
    ['account', 'ACCOUNT_PORT'],
    ['audit', 'AUDIT_PORT'],
  ])(
    'the %s service on a port already taken: startSystem rejects naming the port and its setting, and leaves no connection to the database',
    async (_name, portSetting) => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as AddressInfo).port;
      const database = await createTestDatabase();
      const prefix = `t${randomBytes(4).toString('hex')}-`;
      const settings = loadSettings({
        env: {},
        overrides: {
          LOG_LEVEL: 'silent',
          DATA_DIR: dataFolder.path,
          DATABASE_URL: database.url,
          NATS_URL: process.env.NATS_URL,
          QUEUE_PREFIX: prefix,
          AUDIT_PORT: 0,
          ACCOUNT_PORT: 0,
          'Jwt:PrivateKey': process.env.TEST_JWT_PRIVATE_KEY,
          [portSetting]: port,
        },
      });
      try {
        await expect(
          startSystem({ settings, processes: ['audit', 'account'], logger: createLogger('silent') }),
        ).rejects.toThrow(`cannot listen on http://127.0.0.1:${port} (${portSetting}): the port is in use`);
        // The pool's connections end as it closes; a relay left polling would open one each second.
        await eventually(async () => expect(await connectionsTo(database.name)).toBe(0), 3_000);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(await connectionsTo(database.name)).toBe(0);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
        if (process.env.NATS_URL) await deleteStreams(process.env.NATS_URL, prefix);
        await dropTestDatabase(database.name);
      }
    },
  );
});
