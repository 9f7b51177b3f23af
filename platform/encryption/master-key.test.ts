import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/settings.js';
import { createLogger } from '../logging/logger.js';
import { capturedLogger, WARN_LEVEL } from '../../test/support/captured-logger.js';
import { loadMasterKey, MasterKey } from './master-key.js';
import { SealBrokenError } from './sealed-box.js';

const logger = createLogger('silent');
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'master-key-test-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const keyText = () => randomBytes(32).toString('base64');

describe('issue 12 item 4: Encryption:MasterKey, handled as the signing key is', () => {
  it('uses the configured key: what it seals opens only with it, for the same context, unchanged', () => {
    const text = keyText();
    const key = loadMasterKey(loadSettings({ env: {}, overrides: { 'Encryption:MasterKey': text } }), logger);
    const box = key.seal(Buffer.from('the secret'), 'certificate-private-key/org/abc');
    expect(box.includes(Buffer.from('the secret'))).toBe(false);
    expect(key.open(box, 'certificate-private-key/org/abc').toString()).toBe('the secret');
    expect(MasterKey.fromText(text).open(box, 'certificate-private-key/org/abc').toString()).toBe(
      'the secret',
    );
    expect(() => key.open(box, 'certificate-private-key/org/other')).toThrow(SealBrokenError);
    expect(() => MasterKey.fromText(keyText()).open(box, 'certificate-private-key/org/abc')).toThrow(
      SealBrokenError,
    );
    const changed = Buffer.from(box);
    changed[changed.length - 1]! ^= 1;
    expect(() => key.open(changed, 'certificate-private-key/org/abc')).toThrow(SealBrokenError);
  });

  it('two seals of one text differ (a fresh IV each)', () => {
    const key = MasterKey.fromText(keyText());
    expect(key.seal(Buffer.from('x'), 'c').equals(key.seal(Buffer.from('x'), 'c'))).toBe(false);
  });

  it('unset outside production: a key is generated once under DATA_DIR (mode 600), with a warning, and kept', () => {
    const settings = loadSettings({ env: {}, overrides: { DATA_DIR: folder } });
    const captured = capturedLogger();
    const first = loadMasterKey(settings, captured.logger);
    const path = join(folder, 'encryption-master-key');
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(
      captured.lines.some(
        (line) => line.level === WARN_LEVEL && line.msg?.startsWith('Encryption:MasterKey is not set'),
      ),
    ).toBe(true);
    const box = first.seal(Buffer.from('kept across restarts'), 'c');
    const again = loadMasterKey(settings, logger);
    expect(again.open(box, 'c').toString()).toBe('kept across restarts');
    expect(readFileSync(path, 'utf8').trim()).toHaveLength(44);
  });

  it('unset in production: the start is refused, naming Encryption:MasterKey', () => {
    const settings = loadSettings({ env: {}, overrides: { DATA_DIR: folder, NODE_ENV: 'production' } });
    expect(() => loadMasterKey(settings, logger)).toThrow(
      /^Encryption:MasterKey: required when NODE_ENV=production/,
    );
    expect(existsSync(join(folder, 'encryption-master-key'))).toBe(false);
  });

  it.each([
    ['too short', Buffer.alloc(16, 7).toString('base64')],
    ['not base64', 'x'.repeat(44)],
  ])('a bad value (%s) stops the start naming the setting, never echoing the value', (_title, value) => {
    expect(() => loadSettings({ env: { Encryption__MasterKey: value } })).toThrow(
      /Encryption:MasterKey: must be 32 random bytes in base64/,
    );
    try {
      loadSettings({ env: { Encryption__MasterKey: value } });
    } catch (error) {
      expect((error as Error).message).not.toContain(value);
    }
  });
});
