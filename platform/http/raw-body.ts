import type { IncomingMessage } from 'node:http';

/** The largest request body a service reads; a larger one is 413. */
export const MAX_BODY_SIZE = '5mb';

/** A request whose body was also kept as the bytes that arrived. */
export interface RawBodyRequest extends IncomingMessage {
  rawBody?: Buffer;
}

/**
 * The body readers' `verify` hook: keeps the bytes that arrived, for routes that check a
 * signature over them and to tell an empty body from none.
 */
export function keepRawBody(req: IncomingMessage, _res: unknown, buffer: Buffer): void {
  (req as RawBodyRequest).rawBody = buffer;
}
