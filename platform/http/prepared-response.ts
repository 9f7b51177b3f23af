/**
 * An answer a handler has already written out (its bytes, status and headers), which the router
 * sends as it is: a conditional read's 304, or JSON made once and served many times.
 */
export class PreparedResponse {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body?: Buffer,
  ) {}
}
