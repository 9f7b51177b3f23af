import { mkdirSync, statSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../platform/db/embedded-postgres.js';
import { createLogger } from '../../platform/logging/logger.js';
import { freePort } from '../support/free-port.js';
import { TempFolder } from '../support/temp-folder.js';
import { queryDatabase } from '../support/test-database.js';

const logger = createLogger('silent');
const asRoot = userInfo().uid === 0;
const folders: TempFolder[] = [];

/** A folder as `mktemp -d` makes it: mode 700, owned by us. */
function privateFolder(): string {
  const folder = TempFolder.create('embedded-postgres-test');
  folders.push(folder);
  return folder.path;
}

afterAll(() => {
  for (const folder of folders) folder.remove();
});

describe('CONTRACT 1 Database: the embedded PostgreSQL keeps its data under DATA_DIR', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase | undefined;

  beforeAll(async () => {
    dataDir = privateFolder();
    port = await freePort();
  });

  afterAll(() => database?.stop());

  it(`starts in a mode-700 DATA_DIR (made by mktemp -d)${asRoot ? ', as root' : ''}`, async () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    database = await startEmbeddedPostgres({ dataDir, port, logger });
    expect(await queryDatabase(database.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  }, 120_000);

  (asRoot ? it : it.skip)(
    'as root, opens DATA_DIR to the postgres user for passing through only, not listing',
    () => {
      expect(statSync(dataDir).mode & 0o007).toBe(0o001);
    },
  );

  it('keeps its password beside the data, readable by us only (mode 600)', () => {
    expect(statSync(join(dataDir, 'postgres.password')).mode & 0o777).toBe(0o600);
  });

  it('keeps the data across a restart', async () => {
    await queryDatabase(
      database!.url,
      "create table kept (note text); insert into kept values ('still here')",
    );
    await database!.stop();
    database = undefined;
    database = await startEmbeddedPostgres({ dataDir, port, logger });
    expect(await queryDatabase(database.url, 'select note from kept')).toEqual([{ note: 'still here' }]);
  }, 120_000);
});

describe('CONTRACT 1 Database: a start that cannot work says why', () => {
  let holder: Server;
  let busyPort: number;

  beforeAll(async () => {
    busyPort = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(busyPort, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('a busy port gives a message naming the port and EMBEDDED_POSTGRES_PORT', async () => {
    await expect(startEmbeddedPostgres({ dataDir: privateFolder(), port: busyPort, logger })).rejects.toThrow(
      `EMBEDDED_POSTGRES_PORT ${busyPort} is in use`,
    );
  });

  (asRoot ? it : it.skip)(
    'as root, a folder above DATA_DIR the postgres user cannot enter is named, with the remedy',
    async () => {
      const closed = privateFolder();
      const dataDir = join(closed, 'inner', 'data');
      mkdirSync(dataDir, { recursive: true });
      const start = startEmbeddedPostgres({ dataDir, port: await freePort(), logger });
      await expect(start).rejects.toThrow(`cannot enter ${closed} on the way to DATA_DIR ${dataDir}`);
      await expect(start).rejects.toThrow(/Set DATABASE_URL .* or set DATA_DIR/);
    },
  );

  (asRoot ? it : it.skip)(
    'as root, a DATA_DIR/postgres that is a symbolic link is refused, and what it points at keeps its owner',
    async () => {
      const dataDir = privateFolder();
      const elsewhere = privateFolder();
      symlinkSync(elsewhere, join(dataDir, 'postgres'));
      await expect(startEmbeddedPostgres({ dataDir, port: await freePort(), logger })).rejects.toThrow(
        `${join(dataDir, 'postgres')} is a symbolic link`,
      );
      expect(statSync(elsewhere).uid).toBe(0);
    },
  );
});
