import type { IncomingMessage } from 'node:http';

/** A request header's value (the first, when it came more than once), or undefined when it is absent or empty. */
export function requestHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first || undefined;
}
