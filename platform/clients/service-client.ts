import { z } from 'zod';
import { SESSION_HEADER } from '../auth/token-reader.js';
import {
  BadRequestError,
  ConflictError,
  type DomainError,
  type FieldError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../errors/domain-errors.js';

/** A call's answer from a peer service. */
export interface PeerResponse {
  status: number;
  body: unknown;
}

/**
 * JSON over HTTP to a peer service, with a deadline. A peer that cannot be reached, or
 * answers 5xx, is a 503 of ours; its 4xx answers are for the caller to interpret.
 */
export class ServiceClient {
  constructor(
    private readonly serviceName: string,
    private readonly baseUrl: () => string | undefined,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: { body?: unknown; token?: string } = {},
  ): Promise<PeerResponse> {
    const base = this.baseUrl();
    if (!base)
      throw new ServiceUnavailableError(`The ${this.serviceName} service's address is not configured.`);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers[SESSION_HEADER] = options.token;
    let response: Response;
    try {
      response = await fetch(`${base.replace(/\/$/, '')}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ServiceUnavailableError(`The ${this.serviceName} service could not be reached.`, {}, error);
    }
    const text = await response.text();
    if (response.status >= 500) {
      throw new ServiceUnavailableError(`The ${this.serviceName} service failed (${response.status}).`);
    }
    let body: unknown = text;
    if (text && /json/.test(response.headers.get('content-type') ?? '')) body = JSON.parse(text);
    return { status: response.status, body };
  }
}

/**
 * The domain error matching a peer's 4xx answer, keeping its message (problem details' detail)
 * and, for a 400, the fields it names (`errors`), so the caller learns what to correct.
 */
export function peerError(response: PeerResponse): DomainError {
  const detail =
    typeof response.body === 'object' && response.body !== null && 'detail' in response.body
      ? String(response.body.detail)
      : `The peer answered ${response.status}.`;
  switch (response.status) {
    case 400:
      return new BadRequestError(detail, fieldErrors(response.body));
    case 401:
      return new UnauthorizedError(detail);
    case 403:
      return new ForbiddenError(detail);
    case 404:
      return new NotFoundError(detail);
    case 409:
      return new ConflictError(detail);
    default:
      return new ServiceUnavailableError(`Unexpected answer ${response.status}: ${detail}`);
  }
}

const problemFields = z.object({ errors: z.array(z.object({ field: z.string(), message: z.string() })) });

/** The `errors` of a problem details body; none when it has no such list. */
function fieldErrors(body: unknown): FieldError[] {
  const parsed = problemFields.safeParse(body);
  return parsed.success ? parsed.data.errors : [];
}
