import { join } from 'node:path';
import { DEFAULT_AUTH_NOT_REQUIRED, SettingsError, loadSettings } from './settings.js';
import { rsaKeyPair } from '../../test/support/rsa-keys.js';
import { TempFolder } from '../../test/support/temp-folder.js';

let folder: TempFolder;
let privatePem: string;
let publicPem: string;

beforeAll(() => {
  folder = TempFolder.create('settings-test');
  const pair = rsaKeyPair();
  privatePem = pair.privateKey;
  publicPem = pair.publicKey;
});

afterAll(() => folder.remove());

const settingsFile = (content: unknown): string => folder.write(content);

/** The SettingsError loadSettings throws for this environment (fails the test when none is thrown). */
function settingsErrorFor(env: NodeJS.ProcessEnv, overrides?: Record<string, unknown>): SettingsError {
  try {
    loadSettings({ env, overrides });
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('loadSettings accepted the settings');
}

describe('CONTRACT 1 Ports and spec 5.6 / 8: defaults', () => {
  const settings = loadSettings({ env: {} });

  it('listens on LIBRARY 5001, ACCOUNT 5002, IDENTITY 5003, AUDIT 5004 and GATEWAY 4000', () => {
    expect(settings.http.ports).toEqual({
      library: 5001,
      account: 5002,
      identity: 5003,
      audit: 5004,
      gateway: 4000,
    });
  });

  it('binds 127.0.0.1 for HOST and IDENTITY_HOST', () => {
    expect(settings.http.host).toBe('127.0.0.1');
    expect(settings.http.identityHost).toBe('127.0.0.1');
  });

  it('spec 5.6: Jwt DurationInMinutes 60 and RefreshDurationInMinutes 10080', () => {
    expect(settings.jwt.durationInMinutes).toBe(60);
    expect(settings.jwt.refreshDurationInMinutes).toBe(10080);
  });

  it('spec 5.6: default Issuer and Audience are address-shaped strings', () => {
    expect(() => new URL(settings.jwt.issuer)).not.toThrow();
    expect(() => new URL(settings.jwt.audience)).not.toThrow();
  });

  it('spec 4.4: Audit:AuthNotRequired defaults to FailedLogin, Authentication, JWT, JWK', () => {
    expect([...settings.audit.authNotRequired]).toEqual(['FailedLogin', 'Authentication', 'JWT', 'JWK']);
    expect(DEFAULT_AUTH_NOT_REQUIRED).toEqual(['FailedLogin', 'Authentication', 'JWT', 'JWK']);
  });

  it('CONTRACT 3: Credits:IncludedCredits defaults to 1000', () => {
    expect(settings.credits.includedCredits).toBe(1000);
  });

  it('CONTRACT 1: no DATABASE_URL, NATS_URL, signing key or bootstrap key unless set', () => {
    expect(settings.database.url).toBeUndefined();
    expect(settings.queue.natsUrl).toBeUndefined();
    expect(settings.jwt.privateKey).toBeUndefined();
    expect(settings.jwt.publicKey).toBeUndefined();
    expect(settings.bootstrapApiKey).toBeUndefined();
    expect(settings.production).toBe(false);
    expect(settings.tokenRefresh.allowedOrigins).toEqual([]);
  });

  it('treats an empty environment value as unset', () => {
    const blank = loadSettings({ env: { AUDIT_PORT: '', Jwt__DurationInMinutes: '' } });
    expect(blank.http.ports.audit).toBe(5004);
    expect(blank.jwt.durationInMinutes).toBe(60);
  });
});

describe('CONTRACT 1 Settings: environment values, `__` for `:`, any casing', () => {
  it('reads Jwt__Issuer as Jwt:Issuer', () => {
    const settings = loadSettings({ env: { Jwt__Issuer: 'https://issuer.example' } });
    expect(settings.jwt.issuer).toBe('https://issuer.example');
  });

  it('reads keys without regard to case', () => {
    const settings = loadSettings({
      env: { JWT__AUDIENCE: 'https://aud.example', jwt__durationinminutes: '15', audit_port: '6004' },
    });
    expect(settings.jwt.audience).toBe('https://aud.example');
    expect(settings.jwt.durationInMinutes).toBe(15);
    expect(settings.http.ports.audit).toBe(6004);
  });

  it('CONTRACT 1 Ports: `0` picks a free port, so it is accepted', () => {
    const settings = loadSettings({ env: { LIBRARY_PORT: '0', GATEWAY_PORT: '0' } });
    expect(settings.http.ports.library).toBe(0);
    expect(settings.http.ports.gateway).toBe(0);
  });

  it('reads the peers of a service run alone (Account__ApiUrl, Audit__AuditApiUrl, ...)', () => {
    const settings = loadSettings({
      env: {
        Library__ApiUrl: 'http://127.0.0.1:1',
        Account__ApiUrl: 'http://127.0.0.1:2',
        Identity__ApiUrl: 'http://127.0.0.1:3',
        Audit__AuditApiUrl: 'http://127.0.0.1:4',
      },
    });
    expect(settings.peers).toEqual({
      library: 'http://127.0.0.1:1',
      account: 'http://127.0.0.1:2',
      identity: 'http://127.0.0.1:3',
      audit: 'http://127.0.0.1:4',
    });
  });

  it('lets overrides win over the environment', () => {
    const settings = loadSettings({ env: { Jwt__Issuer: 'env' }, overrides: { 'Jwt:Issuer': 'override' } });
    expect(settings.jwt.issuer).toBe('override');
  });

  it('turns a literal \\n in an environment PEM into a line break', () => {
    const settings = loadSettings({ env: { Jwt__PrivateKey: privatePem.replace(/\n/g, '\\n') } });
    expect(settings.jwt.privateKey).toBe(privatePem.trim());
  });
});

describe('CONTRACT 1 Settings: a JSON settings file named by SETTINGS_FILE', () => {
  it('reads nested keys', () => {
    const path = settingsFile({ Jwt: { Issuer: 'https://nested.example', DurationInMinutes: 5 } });
    const settings = loadSettings({ env: { SETTINGS_FILE: path } });
    expect(settings.jwt.issuer).toBe('https://nested.example');
    expect(settings.jwt.durationInMinutes).toBe(5);
    expect(settings.settingsFile).toBe(path);
  });

  it('reads flat "Jwt:Issuer" keys', () => {
    const path = settingsFile({ 'Jwt:Issuer': 'https://flat.example', 'Credits:IncludedCredits': 250 });
    const settings = loadSettings({ env: { SETTINGS_FILE: path } });
    expect(settings.jwt.issuer).toBe('https://flat.example');
    expect(settings.credits.includedCredits).toBe(250);
  });

  it('reads keys of the file without regard to case', () => {
    const path = settingsFile({ jwt: { issuer: 'https://lower.example' }, AUDIT_PORT: 7004 });
    const settings = loadSettings({ env: { SETTINGS_FILE: path } });
    expect(settings.jwt.issuer).toBe('https://lower.example');
    expect(settings.http.ports.audit).toBe(7004);
  });

  it('lets the environment win over the file', () => {
    const path = settingsFile({
      Jwt: { Issuer: 'https://file.example', Audience: 'https://file-aud.example' },
    });
    const settings = loadSettings({ env: { SETTINGS_FILE: path, Jwt__Issuer: 'https://env.example' } });
    expect(settings.jwt.issuer).toBe('https://env.example');
    expect(settings.jwt.audience).toBe('https://file-aud.example');
  });

  it('reads no file when SETTINGS_FILE is empty', () => {
    expect(loadSettings({ env: { SETTINGS_FILE: '' } }).settingsFile).toBeUndefined();
  });
});

describe('CONTRACT 1 Settings: arrays (Audit:AuthNotRequired, TokenRefresh:AllowedOrigins)', () => {
  it('splits a comma-separated environment value, trimming each item', () => {
    const settings = loadSettings({
      env: {
        Audit__AuthNotRequired: 'FailedLogin, Custom ,JWT',
        TokenRefresh__AllowedOrigins: 'https://a.example,https://b.example',
      },
    });
    expect([...settings.audit.authNotRequired]).toEqual(['FailedLogin', 'Custom', 'JWT']);
    expect([...settings.tokenRefresh.allowedOrigins]).toEqual(['https://a.example', 'https://b.example']);
  });

  it('reads indexed environment keys (Audit__AuthNotRequired__0, __1, ...)', () => {
    const settings = loadSettings({
      env: { Audit__AuthNotRequired__1: 'Second', Audit__AuthNotRequired__0: 'First' },
    });
    expect([...settings.audit.authNotRequired]).toEqual(['First', 'Second']);
  });

  it('reads a JSON array from the file', () => {
    const path = settingsFile({ Audit: { AuthNotRequired: ['JWT', 'Custom'] } });
    const settings = loadSettings({ env: { SETTINGS_FILE: path } });
    expect([...settings.audit.authNotRequired]).toEqual(['JWT', 'Custom']);
  });

  it('lets an environment list replace the file list', () => {
    const path = settingsFile({ Audit: { AuthNotRequired: ['JWT', 'Custom'] } });
    const settings = loadSettings({ env: { SETTINGS_FILE: path, Audit__AuthNotRequired: 'Only' } });
    expect([...settings.audit.authNotRequired]).toEqual(['Only']);
  });
});

describe('CONTRACT 1 Settings: a bad value stops the start with a SettingsError naming the setting', () => {
  it.each([
    ['AUDIT_PORT', { AUDIT_PORT: 'abc' }],
    ['LIBRARY_PORT', { LIBRARY_PORT: '70000' }],
    ['GATEWAY_PORT', { GATEWAY_PORT: '-1' }],
    ['Jwt:DurationInMinutes', { Jwt__DurationInMinutes: '0' }],
    ['Jwt:DurationInMinutes', { Jwt__DurationInMinutes: '1.5' }],
    ['Jwt:RefreshDurationInMinutes', { Jwt__RefreshDurationInMinutes: 'soon' }],
    ['SVC_BOOTSTRAP_API_KEY', { SVC_BOOTSTRAP_API_KEY: 'x'.repeat(31) }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['NATS_URL', { NATS_URL: 'http://nats.example' }],
    ['Credits:IncludedCredits', { Credits__IncludedCredits: '-5' }],
    ['Audit:AuditApiUrl', { Audit__AuditApiUrl: 'ftp://audit.example' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['Jwt:PrivateKey', { Jwt__PrivateKey: 'not a pem' }],
  ])('refuses a bad %s', (name, env) => {
    const error = settingsErrorFor(env);
    expect(error.message).toContain(name);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toContain(name);
  });

  it('names every bad setting in one error', () => {
    const error = settingsErrorFor({
      AUDIT_PORT: 'abc',
      Jwt__DurationInMinutes: '0',
      DATABASE_URL: 'mysql://x',
    });
    expect(error.problems).toHaveLength(3);
    expect(error.message).toContain('AUDIT_PORT');
    expect(error.message).toContain('Jwt:DurationInMinutes');
    expect(error.message).toContain('DATABASE_URL');
  });

  it('refuses a bad value that comes from the settings file', () => {
    const path = settingsFile({ Jwt: { DurationInMinutes: -3 } });
    expect(settingsErrorFor({ SETTINGS_FILE: path }).message).toContain('Jwt:DurationInMinutes');
  });

  it('CONTRACT 2: accepts a bootstrap key of exactly 32 characters', () => {
    const key = 'k'.repeat(32);
    expect(loadSettings({ env: { SVC_BOOTSTRAP_API_KEY: key } }).bootstrapApiKey).toBe(key);
  });

  it('CONTRACT 1 Database: accepts postgres:// and postgresql:// URLs', () => {
    expect(loadSettings({ env: { DATABASE_URL: 'postgres://u:p@h:5432/db' } }).database.url).toBe(
      'postgres://u:p@h:5432/db',
    );
    expect(loadSettings({ env: { DATABASE_URL: 'postgresql://h/db' } }).database.url).toBe(
      'postgresql://h/db',
    );
  });

  // z.coerce.number() reads Number(value): '   ' becomes 0 (a random free port) and true becomes 1.
  it('refuses a whitespace-only port instead of reading it as port 0', () => {
    expect(settingsErrorFor({ AUDIT_PORT: '   ' }).message).toContain('AUDIT_PORT');
  });

  it('refuses a JSON true as a port or a number of credits instead of reading it as 1', () => {
    const path = settingsFile({ AUDIT_PORT: true, Credits: { IncludedCredits: true } });
    const error = settingsErrorFor({ SETTINGS_FILE: path });
    expect(error.message).toContain('AUDIT_PORT');
    expect(error.message).toContain('Credits:IncludedCredits');
  });
});

describe('CONTRACT 1 / issue 2 settings: a bad secret setting is named with its problem, its value never echoed', () => {
  it.each([
    [
      'SVC_BOOTSTRAP_API_KEY',
      { SVC_BOOTSTRAP_API_KEY: 'short-bootstrap-secret-XYZ' },
      'short-bootstrap-secret-XYZ',
    ],
    ['Payments:WebhookSecret', { Payments__WebhookSecret: 'hush-1234' }, 'hush-1234'],
    [
      'Jwt:PrivateKey',
      { Jwt__PrivateKey: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' },
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    ],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://admin:s3cr3t-pw@db' }, 's3cr3t-pw'],
    ['NATS_URL', { NATS_URL: 'http://user:nats-pw-77@nats' }, 'nats-pw-77'],
  ])('%s', (name, env, secret) => {
    const error = settingsErrorFor(env);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toContain(name);
    expect(error.message).not.toContain(secret);
  });

  it('still echoes the value of a setting that is not secret, to help the operator', () => {
    expect(settingsErrorFor({ AUDIT_PORT: 'abc' }).message).toContain('"abc"');
  });
});

describe('spec 8 / CONTRACT 1: CreditCosts are validated at start like every setting', () => {
  it.each([
    ['CreditCosts:VariableGetCost', { CreditCosts__VariableGetCost: 'abc' }],
    ['CreditCosts:VariablePreviewCost', { CreditCosts__VariablePreviewCost: '-1' }],
    ['CreditCosts:VariablePreviewCost', { CreditCosts__VariablePreviewCost: '2.5' }],
  ])('a bad %s stops the start naming it', (name, env) => {
    const error = settingsErrorFor(env);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toContain(name);
  });

  it('a bad cost in the settings file stops the start naming it', () => {
    const path = settingsFile({ CreditCosts: { VariableGetCost: true } });
    expect(settingsErrorFor({ SETTINGS_FILE: path }).message).toContain('CreditCosts:VariableGetCost');
  });

  it('accepts good costs, and none', () => {
    expect(() =>
      loadSettings({ env: { CreditCosts__VariableGetCost: '0', CreditCosts__VariablePreviewCost: '25' } }),
    ).not.toThrow();
    expect(() => loadSettings({ env: {} })).not.toThrow();
  });
});

describe('CONTRACT 1 Signing key: NODE_ENV=production reads Jwt__PrivateKey or Jwt__PublicKey', () => {
  it('starts in production with Jwt__PrivateKey', () => {
    const settings = loadSettings({ env: { NODE_ENV: 'production', Jwt__PrivateKey: privatePem } });
    expect(settings.production).toBe(true);
    expect(settings.jwt.privateKey).toBe(privatePem.trim());
  });

  it('starts in production with a verify-only Jwt__PublicKey', () => {
    const settings = loadSettings({ env: { NODE_ENV: 'production', Jwt__PublicKey: publicPem } });
    expect(settings.production).toBe(true);
    expect(settings.jwt.publicKey).toBe(publicPem.trim());
  });

  // The refusal of production without any key is loadSigningKeys' (see signing-keys.test.ts).
  it('starts without a key outside production', () => {
    expect(loadSettings({ env: { NODE_ENV: 'development' } }).jwt.privateKey).toBeUndefined();
  });
});

describe('CONTRACT 1 Settings: an unusable SETTINGS_FILE stops the start naming its path', () => {
  it('names the path of a file that cannot be read', () => {
    const path = join(folder.path, 'does-not-exist.json');
    expect(() => loadSettings({ env: { SETTINGS_FILE: path } })).toThrow(path);
  });

  it('names the path of a malformed file', () => {
    const path = settingsFile('{ "Jwt": { "Issuer": ');
    expect(() => loadSettings({ env: { SETTINGS_FILE: path } })).toThrow(path);
  });

  it('names the path of a file whose top level is not an object', () => {
    const path = settingsFile('["Jwt:Issuer"]');
    expect(() => loadSettings({ env: { SETTINGS_FILE: path } })).toThrow(path);
  });
});
