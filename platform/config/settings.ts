import { resolve } from 'node:path';
import { z } from 'zod';
import { CREDIT_COST_DEFAULTS, creditCost } from './credit-costs.js';
import { SettingsSource, readSettingsFile } from './settings-source.js';
import { integerSetting, unset } from './setting-values.js';
import { isMasterKeyText } from '../encryption/master-key.js';

/** The four REST services; the gateway is not one of them. */
export const SERVICE_NAMES = ['library', 'account', 'identity', 'audit'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
export type ProcessName = ServiceName | 'gateway';

/** CONTRACT section 1. */
export const DEFAULT_PORTS: Readonly<Record<ProcessName, number>> = {
  library: 5001,
  account: 5002,
  identity: 5003,
  audit: 5004,
  gateway: 4000,
};

const port = integerSetting().pipe(z.number().min(0).max(65535));
const url = z.url({ protocol: /^https?$/ });
const minutes = integerSetting().pipe(z.number().positive());
const nonNegativeInt = integerSetting().pipe(z.number().nonnegative());
const stringList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z.array(z.string().min(1)),
);

/** The entry types the audit service accepts without a token, unless configured (spec 8.5). */
export const DEFAULT_AUTH_NOT_REQUIRED = ['FailedLogin', 'Authentication', 'JWT', 'JWK'];

export interface Settings {
  readonly production: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly dataDir: string;
  readonly settingsFile: string | undefined;
  readonly database: { readonly url: string | undefined; readonly embeddedPort: number };
  readonly queue: { readonly natsUrl: string | undefined; readonly prefix: string };
  readonly http: {
    readonly host: string;
    readonly identityHost: string;
    readonly ports: Readonly<Record<ProcessName, number>>;
  };
  /** Where peers are found when a service runs alone (CONTRACT section 1). */
  readonly peers: Readonly<Record<ServiceName, string | undefined>>;
  readonly jwt: {
    readonly issuer: string;
    readonly audience: string;
    /** Accepted for compatibility; `sub` is always the account id (spec 5.5). */
    readonly subject: string | undefined;
    readonly durationInMinutes: number;
    readonly refreshDurationInMinutes: number;
    readonly privateKey: string | undefined;
    readonly publicKey: string | undefined;
  };
  readonly tokenRefresh: { readonly allowedOrigins: readonly string[] };
  readonly credits: {
    readonly includedCredits: number;
    /** Named pricing bands and the credits each includes; an organization without a band is on the default. */
    readonly bands: Readonly<Record<string, number>>;
  };
  /** The subscription payment webhook; without a secret the webhook refuses every call. */
  readonly payments: { readonly webhookSecret: string | undefined };
  readonly audit: { readonly authNotRequired: readonly string[] };
  /** The library's master key (platform/encryption/master-key.ts); generated under DATA_DIR outside production when unset. */
  readonly encryption: { readonly masterKey: string | undefined };
  readonly bootstrapApiKey: string | undefined;
  /** Where the settings came from, for what is read again while running (the credit costs). */
  readonly sources: { readonly env: NodeJS.ProcessEnv; readonly overrides: Record<string, unknown> };
}

/**
 * Reads and validates every setting once. Throws one Error naming each bad setting, so a
 * bad value stops the start with a message a person can act on.
 */
export function loadSettings(
  options: {
    env?: NodeJS.ProcessEnv;
    overrides?: Record<string, unknown>;
  } = {},
): Settings {
  const env = options.env ?? process.env;
  const settingsFile = env.SETTINGS_FILE || undefined;
  const source = SettingsSource.from({
    env,
    file: settingsFile ? readSettingsFile(settingsFile) : undefined,
    overrides: options.overrides,
  });
  const problems: string[] = [];
  /** A secret's value (or a URL that may carry a password) is never written into the message. */
  const read = <T extends z.ZodType>(key: string, schema: T, kind?: 'secret'): z.output<T> => {
    const raw = source.get(key);
    const result = schema.safeParse(unset(raw));
    if (result.success) return result.data;
    const reasons = result.error.issues.map((i) => i.message).join(', ');
    problems.push(
      kind === 'secret' ? `${key}: ${reasons}` : `${key}: ${reasons} (got ${JSON.stringify(raw)})`,
    );
    return undefined as z.output<T>;
  };

  const nodeEnv = read('NODE_ENV', z.enum(['development', 'production', 'test']).default('development'));
  const production = nodeEnv === 'production';
  const settings: Settings = {
    production,
    logLevel: read(
      'LOG_LEVEL',
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    dataDir: resolve(read('DATA_DIR', z.string().default('.data'))),
    settingsFile,
    database: {
      url: read(
        'DATABASE_URL',
        z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
          .optional(),
        'secret',
      ),
      embeddedPort: read(
        'EMBEDDED_POSTGRES_PORT',
        integerSetting().pipe(z.number().min(1).max(65535)).default(54329),
      ),
    },
    queue: {
      natsUrl: read(
        'NATS_URL',
        z
          .string()
          .regex(/^(nats|tls):\/\/|^[\w.-]+:\d+$/, 'must be a nats:// URL')
          .optional(),
        'secret',
      ),
      prefix: read(
        'QUEUE_PREFIX',
        z
          .string()
          .regex(/^[A-Za-z0-9_-]*$/, 'letters, digits, _ and - only')
          .default(''),
      ),
    },
    http: {
      host: read('HOST', z.string().min(1).default('127.0.0.1')),
      identityHost: read('IDENTITY_HOST', z.string().min(1).default('127.0.0.1')),
      ports: {
        library: read('LIBRARY_PORT', port.default(DEFAULT_PORTS.library)),
        account: read('ACCOUNT_PORT', port.default(DEFAULT_PORTS.account)),
        identity: read('IDENTITY_PORT', port.default(DEFAULT_PORTS.identity)),
        audit: read('AUDIT_PORT', port.default(DEFAULT_PORTS.audit)),
        gateway: read('GATEWAY_PORT', port.default(DEFAULT_PORTS.gateway)),
      },
    },
    peers: {
      library: read('Library:ApiUrl', url.optional()),
      account: read('Account:ApiUrl', url.optional()),
      identity: read('Identity:ApiUrl', url.optional()),
      audit: read('Audit:AuditApiUrl', url.optional()),
    },
    jwt: {
      issuer: read('Jwt:Issuer', z.string().min(1).default('https://identity.config-library.local')),
      audience: read('Jwt:Audience', z.string().min(1).default('https://api.config-library.local')),
      subject: read('Jwt:Subject', z.string().min(1).optional()),
      durationInMinutes: read('Jwt:DurationInMinutes', minutes.default(60)),
      refreshDurationInMinutes: read('Jwt:RefreshDurationInMinutes', minutes.default(10080)),
      privateKey: read('Jwt:PrivateKey', pem('PRIVATE KEY').optional(), 'secret'),
      publicKey: read('Jwt:PublicKey', pem('PUBLIC KEY').optional()),
    },
    tokenRefresh: { allowedOrigins: read('TokenRefresh:AllowedOrigins', stringList.default([])) },
    credits: {
      includedCredits: read('Credits:IncludedCredits', nonNegativeInt.default(1000)),
      bands: read('Credits:Bands', z.record(z.string().min(1).max(50), nonNegativeInt).default({})),
    },
    payments: {
      webhookSecret: read(
        'Payments:WebhookSecret',
        z.string().min(16, 'must be at least 16 characters').optional(),
        'secret',
      ),
    },
    audit: { authNotRequired: read('Audit:AuthNotRequired', stringList.default(DEFAULT_AUTH_NOT_REQUIRED)) },
    encryption: {
      masterKey: read(
        'Encryption:MasterKey',
        z
          .string()
          .trim()
          .refine(
            isMasterKeyText,
            'must be 32 random bytes in base64, 44 characters (`openssl rand -base64 32` makes one)',
          )
          .optional(),
        'secret',
      ),
    },
    bootstrapApiKey: read(
      'SVC_BOOTSTRAP_API_KEY',
      z.string().min(32, 'must be at least 32 characters').optional(),
      'secret',
    ),
    sources: { env, overrides: options.overrides ?? {} },
  };
  // Read again on every request (CreditCostReader); checked here too, so a bad value stops the start.
  read('CreditCosts:VariableGetCost', creditCost.default(CREDIT_COST_DEFAULTS.variableGetCost));
  read('CreditCosts:VariablePreviewCost', creditCost.default(CREDIT_COST_DEFAULTS.variablePreviewCost));
  if (problems.length > 0) {
    throw new SettingsError(problems);
  }
  return Object.freeze(settings);
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n  - ${problems.join('\n  - ')}`);
  }
}

function pem(label: string) {
  return z
    .string()
    .transform((value) => value.replace(/\\n/g, '\n').trim())
    .refine((value) => value.includes(`-----BEGIN`) && value.includes(label), `must be a PEM ${label}`);
}
