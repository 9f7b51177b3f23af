import type { RequestOptions } from 'node:https';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { BadRequestError, type FieldError } from '../../../platform/errors/domain-errors.js';
import {
  HostResolutionError,
  NonPublicAddressError,
  resolvePublicAddress,
  type HostResolver,
  type ResolvedAddress,
} from '../../../platform/http/public-address.js';

/**
 * POST /organizations/identityproviders/check: checks an identity provider's client credentials
 * against the provider itself, server-side, within a time limit, storing nothing.
 *
 * Security rules this module keeps (they are why it looks the way it does):
 * - The host is a constant per provider. Nothing in the input reaches the host or port; the one
 *   input that reaches the path (Entra's tenant) is validated to a GUID or domain name and encoded.
 * - The connection goes only to an address that `resolvePublicAddress` vetted, and is pinned to it
 *   (custom `lookup`), so a second DNS answer cannot send it elsewhere. TLS still verifies the
 *   certificate against the real host name (SNI and Host stay the host name).
 * - Redirects are not followed, the answer is read up to 64 KB, and one deadline covers resolving,
 *   connecting and reading.
 * - The secret is sent to the provider and nowhere else: it is not stored, not logged, and the
 *   detail handed back holds none of the provider's free text (which could echo it), only our own
 *   words, the provider's numeric codes and error codes from a fixed list.
 */

export type IdentityProviderKind = 'Entra' | 'Google';

export interface ProviderCheckInput {
  provider: IdentityProviderKind;
  clientId: string;
  /** Entra only: the Directory (tenant) ID or a verified domain of the tenant. */
  tenantId?: string | null;
  clientSecret: string;
}

/** The outcome of a check. `detail` is meant for the person who entered the credentials. */
export interface ProviderCheckResult {
  valid: boolean;
  detail: string;
}

/** The one HTTPS request a check sends. Always a form POST to a provider's fixed host on port 443. */
export interface ProviderRequest {
  readonly method: 'POST';
  readonly hostname: string;
  readonly port: number;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Form-encoded; holds the client secret, so it must never be logged. */
  readonly body: string;
}

/** The provider's answer: status and body text (bounded by the transport). */
export interface ProviderResponse {
  status: number;
  body: string;
}

/**
 * Sends `request` to `target` (the vetted address of `request.hostname`) and returns the answer.
 * It must abort when `signal` aborts. The production transport is `httpsTransport`; the check takes
 * it as a dependency so tests can simulate providers (answers, hangs, failures) without a network.
 */
export type ProviderTransport = (
  request: ProviderRequest,
  target: ResolvedAddress,
  signal: AbortSignal,
) => Promise<ProviderResponse>;

/** The spec's limit for a provider check. */
export const PROVIDER_CHECK_TIMEOUT_MS = 15_000;

/** Largest provider answer read. Token endpoint answers are well under 4 KB. */
export const MAX_PROVIDER_RESPONSE_BYTES = 64 * 1024;

export const ENTRA_TOKEN_HOST = 'login.microsoftonline.com';
export const GOOGLE_TOKEN_HOST = 'oauth2.googleapis.com';

const PROVIDERS: Readonly<Record<IdentityProviderKind, { label: string; hostname: string }>> = {
  Entra: { label: 'Microsoft Entra ID', hostname: ENTRA_TOKEN_HOST },
  Google: { label: 'Google', hostname: GOOGLE_TOKEN_HOST },
};

const ENTRA_SCOPE = 'https://graph.microsoft.com/.default';

// See buildGoogleTokenRequest for why a deliberately invalid code is sent.
const GOOGLE_PROBE_CODE = 'configuration-library-credential-check-not-a-real-code';
// Never contacted: Google compares it with the redirect URI the code was issued for, and this
// code was issued for none.
const GOOGLE_PROBE_REDIRECT_URI = 'https://localhost/';

/** The longest ids and secret a provider's settings may have: here and in the request schemas alike. */
export const MAX_CLIENT_ID_LENGTH = 256;
export const MAX_TENANT_ID_LENGTH = 253;
export const MAX_CLIENT_SECRET_LENGTH = 2048;

/** The provider's answer was larger than MAX_PROVIDER_RESPONSE_BYTES; reading stopped. */
export class ProviderResponseTooLargeError extends Error {
  override readonly name = 'ProviderResponseTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The provider's answer exceeded ${maxBytes} bytes.`);
  }
}

class ProviderTimeoutError extends Error {
  override readonly name = 'ProviderTimeoutError';
}

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DNS_LABEL_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Whether `value` is an Entra tenant as this check accepts it: a GUID (the Directory (tenant) ID)
 * or a domain name of at least two labels (a verified domain such as contoso.onmicrosoft.com).
 *
 * Only letters, digits, dots and hyphens pass, so the tenant can never add a path segment, a query,
 * a user-info part, a port or a percent-escape to the token URL. Aliases such as `common` or
 * `organizations` are refused: the client-credentials grant needs one specific tenant. A name whose
 * last label is all digits (an IPv4 address) is refused too.
 */
export function isValidEntraTenantId(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (GUID_PATTERN.test(value)) return true;
  if (value.length > MAX_TENANT_ID_LENGTH) return false;
  const labels = value.split('.');
  const last = labels[labels.length - 1] ?? '';
  return labels.length >= 2 && labels.every((label) => DNS_LABEL_PATTERN.test(label)) && /[a-z]/i.test(last);
}

// Control characters have no place in an id or secret (a common copy-paste accident).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value);
}

/** A field of a provider's settings that is wrong, and what to do about it. */
export interface ProviderInputIssue {
  field: 'provider' | 'clientId' | 'tenantId' | 'clientSecret';
  message: string;
}

/**
 * What is wrong with a provider's settings, field by field; empty when nothing is. Used for the
 * check's body and for the providers stored on an organization, so a provider that is saved is one
 * that can be checked. A secret left out is not an issue here (an organization keeps its stored
 * one); the check itself needs one. The input may come straight from a request body: its declared
 * type is not trusted at run time.
 */
export function providerInputIssues(input: {
  provider: unknown;
  clientId: unknown;
  tenantId?: unknown;
  clientSecret?: unknown;
}): ProviderInputIssue[] {
  const { provider, clientId, tenantId, clientSecret } = input;
  const issues: ProviderInputIssue[] = [];
  if (provider !== 'Entra' && provider !== 'Google') {
    issues.push({ field: 'provider', message: 'The provider must be Entra or Google.' });
  }
  if (typeof clientId !== 'string' || clientId.trim() === '') {
    issues.push({ field: 'clientId', message: 'Enter the client ID.' });
  } else if (
    clientId.length > MAX_CLIENT_ID_LENGTH ||
    !isPlainText(clientId) ||
    clientId.trim() !== clientId
  ) {
    issues.push({
      field: 'clientId',
      message: 'The client ID is not valid: copy it again, without spaces or line breaks.',
    });
  } else if (provider === 'Entra' && !GUID_PATTERN.test(clientId)) {
    issues.push({
      field: 'clientId',
      message: 'The client ID of an Entra application is a GUID: its Application (client) ID.',
    });
  }
  if (provider === 'Entra') {
    if (tenantId === undefined || tenantId === null || tenantId === '') {
      issues.push({
        field: 'tenantId',
        message: 'Enter the tenant ID: the Directory (tenant) ID of your Microsoft Entra tenant.',
      });
    } else if (!isValidEntraTenantId(tenantId)) {
      issues.push({
        field: 'tenantId',
        message:
          'The tenant ID must be the Directory (tenant) ID, a GUID, or a verified domain of the tenant such as contoso.onmicrosoft.com.',
      });
    }
  }
  if (clientSecret !== undefined) {
    if (typeof clientSecret !== 'string' || clientSecret === '') {
      issues.push({ field: 'clientSecret', message: 'Enter the client secret.' });
    } else if (clientSecret.length > MAX_CLIENT_SECRET_LENGTH || !isPlainText(clientSecret)) {
      issues.push({
        field: 'clientSecret',
        message: 'The client secret is not valid: copy it again, without line breaks.',
      });
    }
  }
  return issues;
}

/** A check that is ready to send: the provider's request and how to read its answer. */
export interface PreparedProviderCheck {
  provider: IdentityProviderKind;
  request: ProviderRequest;
  interpret: (response: ProviderResponse) => ProviderCheckResult;
}

/**
 * Validates the input and builds the provider's request and interpreter.
 *
 * @throws BadRequestError naming each field that cannot be checked (nothing is sent for it). The
 *   REST and GraphQL bodies run `providerInputIssues` first, so there the fields carry their
 *   location (`body.tenantId`); this is the check's own guard for any other caller.
 */
export function prepareProviderCheck(input: ProviderCheckInput): PreparedProviderCheck {
  const issues = providerInputIssues({ ...input, clientSecret: input.clientSecret ?? '' });
  if (issues.length > 0) {
    throw BadRequestError.invalidFields(
      issues.map((issue): FieldError => ({ field: issue.field, message: issue.message })),
    );
  }
  const { clientId, clientSecret } = input;
  if (input.provider === 'Entra') {
    // providerInputIssues has checked the tenant.
    const tenantId = input.tenantId!;
    return {
      provider: 'Entra',
      request: buildEntraTokenRequest({ clientId, tenantId, clientSecret }),
      interpret: (response) => interpretEntraResponse(response, { clientId, tenantId }),
    };
  }
  return {
    provider: 'Google',
    request: buildGoogleTokenRequest({ clientId, clientSecret }),
    interpret: (response) => interpretGoogleResponse(response, { clientId }),
  };
}

function formRequest(hostname: string, path: string, form: URLSearchParams): ProviderRequest {
  const body = form.toString();
  return {
    method: 'POST',
    hostname,
    port: 443,
    path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
      accept: 'application/json',
      // A compressed answer would defeat the size limit and need decoding; ask for none.
      'accept-encoding': 'identity',
    },
    body,
  };
}

/**
 * The Entra client-credentials token request:
 * POST https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token.
 *
 * @throws Error when `tenantId` is not a valid tenant (callers validate first; this is a backstop).
 */
export function buildEntraTokenRequest(credentials: {
  clientId: string;
  tenantId: string;
  clientSecret: string;
}): ProviderRequest {
  if (!isValidEntraTenantId(credentials.tenantId))
    throw new Error('Refusing to build a request for an invalid tenant.');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    scope: ENTRA_SCOPE,
  });
  // The tenant is already limited to letters, digits, dots and hyphens; encoding is a second guard.
  return formRequest(
    ENTRA_TOKEN_HOST,
    `/${encodeURIComponent(credentials.tenantId)}/oauth2/v2.0/token`,
    form,
  );
}

/**
 * The Google credential probe: POST https://oauth2.googleapis.com/token.
 *
 * Google OAuth clients cannot use the client-credentials grant, so there is no request that simply
 * succeeds for good credentials. Instead we redeem an authorization code that is obviously invalid.
 * Google's token endpoint authenticates the client before it looks at the code, so:
 * - `invalid_grant` (the code is bad) means the client ID and secret were accepted;
 * - `invalid_client` / `unauthorized_client` (and `deleted_client`, `disabled_client`) mean they were not.
 * No code is ever valid, so the probe can never obtain a token.
 */
export function buildGoogleTokenRequest(credentials: {
  clientId: string;
  clientSecret: string;
}): ProviderRequest {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: GOOGLE_PROBE_CODE,
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    redirect_uri: GOOGLE_PROBE_REDIRECT_URI,
  });
  return formRequest(GOOGLE_TOKEN_HOST, '/token', form);
}

// ---------------------------------------------------------------------------------------------
// Interpreting answers
// ---------------------------------------------------------------------------------------------

interface OAuthErrorBody {
  error?: string;
  description?: string;
  codes: number[];
  accessToken?: string;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readOAuthBody(text: string): OAuthErrorBody | undefined {
  const json = parseJsonObject(text);
  if (!json) return undefined;
  const str = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : undefined;
  const description = str(json.error_description);
  const codes = Array.isArray(json.error_codes)
    ? json.error_codes.filter(
        (code): code is number => Number.isInteger(code) && code >= 0 && code < 1_000_000_000,
      )
    : [];
  // Entra repeats the code as "AADSTS7000215: ..." at the start of the description; use it when
  // error_codes is missing.
  const fromDescription = /^AADSTS(\d+)/.exec(description ?? '')?.[1];
  if (codes.length === 0 && fromDescription) codes.push(Number(fromDescription));
  return { error: str(json.error), description, codes, accessToken: str(json.access_token) };
}

/**
 * The OAuth error codes (RFC 6749 5.2 and the providers' own) a detail may name. A detail never
 * carries the provider's free text: a provider could echo the client secret in it, and redacting it
 * there would also mangle our own words wherever a short secret happens to occur.
 */
const KNOWN_OAUTH_ERRORS: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'consent_required',
  'invalid_resource',
  'deleted_client',
  'disabled_client',
  'org_internal',
]);

/** The provider's error code, when it is one of the known ones; else a phrase of ours. */
function errorCodeText(error: string): string {
  return KNOWN_OAUTH_ERRORS.has(error) ? error : 'an error code this check does not know';
}

/** Answers that say nothing about the credentials, whatever the provider. */
function inconclusive(label: string, response: ProviderResponse): ProviderCheckResult | undefined {
  const { status } = response;
  if (status >= 300 && status < 400) {
    return {
      valid: false,
      detail: `${label} answered with a redirect (HTTP ${status}), which is not followed; the credentials were not checked. Try again later.`,
    };
  }
  if (status === 429) {
    return {
      valid: false,
      detail: `${label} is limiting requests (HTTP 429); the credentials were not checked. Try again in a minute.`,
    };
  }
  if (status >= 500) {
    return {
      valid: false,
      detail: `${label} is temporarily unavailable (HTTP ${status}); the credentials were not checked. Try again later.`,
    };
  }
  return undefined;
}

function unexpected(label: string, response: ProviderResponse): ProviderCheckResult {
  return {
    valid: false,
    detail: `${label} gave an unexpected answer (HTTP ${response.status}); the credentials could not be checked. Try again later.`,
  };
}

const ENTRA_ERRORS: Readonly<Record<number, (context: { clientId: string; tenantId: string }) => string>> = {
  7000215: ({ clientId }) =>
    `Microsoft Entra ID rejected the client secret (AADSTS7000215). Check that you copied the secret's Value, not its Secret ID, and that it belongs to application ${clientId}.`,
  7000222: ({ clientId }) =>
    `The client secret has expired (AADSTS7000222). Create a new client secret for application ${clientId} in Microsoft Entra ID and enter it here.`,
  700016: ({ clientId, tenantId }) =>
    `Application ${clientId} was not found in tenant ${tenantId} (AADSTS700016). Check the client ID (the Application (client) ID), the tenant ID, and that the application is registered in or consented to by this tenant.`,
  90002: ({ tenantId }) =>
    `Tenant ${tenantId} was not found (AADSTS90002). Check the tenant ID: the Directory (tenant) ID or a verified domain of the tenant.`,
  900023: ({ tenantId }) =>
    `Microsoft Entra ID does not accept ${tenantId} as a tenant (AADSTS900023). Enter the Directory (tenant) ID or a verified domain of the tenant.`,
  7000112: ({ clientId, tenantId }) =>
    `Application ${clientId} is disabled in tenant ${tenantId} (AADSTS7000112). Enable it in Microsoft Entra ID or use another application.`,
  700025: ({ clientId }) =>
    `Application ${clientId} is a public client, which cannot use a client secret (AADSTS700025). Use a confidential (web) application registration.`,
};

/**
 * Reads Entra's answer to the client-credentials request. HTTP 200 with an access token means the
 * credentials are valid (the token is dropped, never returned). Errors are read from the JSON body
 * (`error`, `error_description`, `error_codes`); the AADSTS codes we know get a specific detail,
 * others name the code.
 */
export function interpretEntraResponse(
  response: ProviderResponse,
  context: { clientId: string; tenantId: string },
): ProviderCheckResult {
  const label = PROVIDERS.Entra.label;
  const body = readOAuthBody(response.body);
  if (response.status === 200) {
    return body?.accessToken
      ? {
          valid: true,
          detail: `Microsoft Entra ID accepted the client ID and secret for tenant ${context.tenantId}.`,
        }
      : unexpected(label, response);
  }
  const known = body?.codes.find((code) => ENTRA_ERRORS[code] !== undefined);
  if (known !== undefined) return { valid: false, detail: ENTRA_ERRORS[known]!(context) };
  const notChecked = inconclusive(label, response);
  if (notChecked) return notChecked;
  if (!body?.error || response.status < 400) return unexpected(label, response);
  const code = body.codes[0] === undefined ? '' : `, AADSTS${body.codes[0]}`;
  return {
    valid: false,
    detail: `Microsoft Entra ID refused the credentials (${errorCodeText(body.error)}${code}). Look the code up in Microsoft's list of Entra error codes.`,
  };
}

/**
 * Reads Google's answer to the invalid-code probe (see buildGoogleTokenRequest): `invalid_grant`
 * means the client ID and secret are valid; client errors mean they are not; anything else is
 * reported as not checked.
 */
export function interpretGoogleResponse(
  response: ProviderResponse,
  context: { clientId: string },
): ProviderCheckResult {
  const label = PROVIDERS.Google.label;
  const notChecked = inconclusive(label, response);
  if (notChecked) return notChecked;
  const body = readOAuthBody(response.body);
  if (response.status < 400 || !body?.error) return unexpected(label, response);
  const description = (body.description ?? '').toLowerCase();
  const shape = context.clientId.endsWith('.apps.googleusercontent.com')
    ? ''
    : ' A Google OAuth client ID ends in .apps.googleusercontent.com.';
  switch (body.error) {
    case 'invalid_grant':
      return { valid: true, detail: `Google accepted the client ID and secret.` };
    case 'invalid_client':
      if (description.includes('not found')) {
        return {
          valid: false,
          detail: `Google does not know the OAuth client ${context.clientId} (invalid_client). Check the client ID.${shape}`,
        };
      }
      return {
        valid: false,
        detail: `Google rejected the client ID or secret (invalid_client). Check the client secret of OAuth client ${context.clientId}, or create a new one in the Google Cloud console.${shape}`,
      };
    case 'unauthorized_client':
      return {
        valid: false,
        detail: `Google does not allow OAuth client ${context.clientId} to sign users in with a client secret (unauthorized_client). Use a client of type "Web application".`,
      };
    case 'deleted_client':
      return {
        valid: false,
        detail: `The OAuth client ${context.clientId} was deleted in Google Cloud (deleted_client). Restore it or create a new one.`,
      };
    case 'disabled_client':
      return {
        valid: false,
        detail: `The OAuth client ${context.clientId} is disabled in Google Cloud (disabled_client). Enable it or use another client.`,
      };
    default:
      return {
        valid: false,
        detail: `Google could not check the credentials (${errorCodeText(body.error)}).`,
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Transport
// ---------------------------------------------------------------------------------------------

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Reads a body up to `maxBytes`, as UTF-8 text.
 *
 * @throws ProviderResponseTooLargeError as soon as more arrives (the source is then destroyed).
 */
export async function readLimitedBody(
  source: AsyncIterable<Buffer | string>,
  maxBytes: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) throw new ProviderResponseTooLargeError(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The `node:https` options for `request`, pinned to `target`: the socket connects to the vetted
 * address, while SNI, certificate verification and the Host header use the real host name.
 */
export function httpsRequestOptions(
  request: ProviderRequest,
  target: ResolvedAddress,
  signal: AbortSignal,
): RequestOptions {
  const lookup: LookupFunction = (hostname, options, callback) => {
    if (hostname !== request.hostname) {
      callback(new Error(`Unexpected lookup of ${hostname}.`), '', 0);
      return;
    }
    // Node 20 asks for all addresses (for happy eyeballs); older callers ask for one.
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return {
    protocol: 'https:',
    hostname: request.hostname,
    servername: request.hostname,
    port: request.port,
    method: request.method,
    path: request.path,
    headers: { ...request.headers },
    family: target.family,
    lookup,
    // A fresh socket per check: no pooled connection, and no proxy, can bypass the pinned address.
    agent: false,
    signal,
  };
}

/**
 * The production transport: one HTTPS request to the pinned address. Redirects are not followed
 * (node:https never does), the body is read up to MAX_PROVIDER_RESPONSE_BYTES, and the request is
 * destroyed when `signal` aborts.
 */
export const httpsTransport: ProviderTransport = (request, target, signal) =>
  new Promise<ProviderResponse>((resolve, reject) => {
    const outgoing = httpsRequest(httpsRequestOptions(request, target, signal), (response) => {
      const declared = Number(response.headers['content-length']);
      if (declared > MAX_PROVIDER_RESPONSE_BYTES) {
        outgoing.destroy();
        reject(new ProviderResponseTooLargeError(MAX_PROVIDER_RESPONSE_BYTES));
        return;
      }
      readLimitedBody(response, MAX_PROVIDER_RESPONSE_BYTES).then(
        (body) => resolve({ status: response.statusCode ?? 0, body }),
        (error: unknown) => {
          outgoing.destroy();
          reject(asError(error));
        },
      );
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });

// ---------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------

/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(asError(signal.reason));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value} second${value === 1 ? '' : 's'}`;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'unknown error';
}

/**
 * Checks identity provider credentials against the provider (spec: POST
 * /organizations/identityproviders/check). Holds nothing but its dependencies; credentials live only
 * for the duration of one `check`.
 */
export class IdentityProviderCheck {
  private readonly resolver: HostResolver;
  private readonly timeoutMs: number;
  private readonly transport: ProviderTransport;

  /**
   * @param deps.resolver resolves the provider's host; production passes `systemResolver`.
   * @param deps.timeoutMs one deadline for resolving, connecting and reading; production passes
   *   `PROVIDER_CHECK_TIMEOUT_MS`.
   * @param deps.transport sends the request; defaults to `httpsTransport`.
   */
  constructor(deps: { resolver: HostResolver; timeoutMs: number; transport?: ProviderTransport }) {
    if (!Number.isFinite(deps.timeoutMs) || deps.timeoutMs <= 0) {
      throw new RangeError('timeoutMs must be a positive number.');
    }
    this.resolver = deps.resolver;
    this.timeoutMs = deps.timeoutMs;
    this.transport = deps.transport ?? httpsTransport;
  }

  /**
   * Checks the credentials. Never throws for anything on the provider's side: invalid credentials,
   * an unknown tenant, a timeout, an unreachable or refused provider address all give
   * `valid: false` with a detail saying what to do. The detail never contains the secret.
   *
   * @throws BadRequestError for input that cannot be checked (see prepareProviderCheck).
   */
  async check(input: ProviderCheckInput): Promise<ProviderCheckResult> {
    const prepared = prepareProviderCheck(input);
    const { label, hostname } = PROVIDERS[prepared.provider];

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new ProviderTimeoutError()), this.timeoutMs);
    let response: ProviderResponse;
    try {
      const target = await untilAborted(resolvePublicAddress(hostname, this.resolver), deadline.signal);
      // Belt and braces: the race ends the wait even if a transport ignored the signal.
      response = await untilAborted(
        this.transport(prepared.request, target, deadline.signal),
        deadline.signal,
      );
    } catch (error) {
      return this.failure(error, deadline.signal, label, hostname);
    } finally {
      clearTimeout(timer);
    }
    return prepared.interpret(response);
  }

  private failure(
    error: unknown,
    deadline: AbortSignal,
    label: string,
    hostname: string,
  ): ProviderCheckResult {
    if (deadline.aborted && deadline.reason instanceof ProviderTimeoutError) {
      return {
        valid: false,
        detail: `${label} did not answer within ${seconds(this.timeoutMs)}; the credentials were not checked. Try again later.`,
      };
    }
    if (error instanceof NonPublicAddressError) {
      return {
        valid: false,
        detail: `The address of ${hostname} is not public, so ${label} was not contacted and the credentials were not checked. This server's DNS resolves the provider to a private, loopback or link-local address; ask the operator to check its DNS settings.`,
      };
    }
    if (error instanceof HostResolutionError) {
      return {
        valid: false,
        detail: `${hostname} could not be resolved, so the credentials were not checked. Check this server's DNS and internet access, then try again.`,
      };
    }
    if (error instanceof ProviderResponseTooLargeError) {
      return {
        valid: false,
        detail: `${label} sent an unexpectedly large answer; the credentials could not be checked. Try again later.`,
      };
    }
    return {
      valid: false,
      detail: `${label} could not be reached at ${hostname} (${errorCode(error)}); the credentials were not checked. Try again later; if this persists, check that this server can reach ${hostname}.`,
    };
  }
}
