/** A response as tests look at it: the status, the parsed body (JSON or text) and the headers. */
export interface TestResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Plain fetch against a running service, with the session token in `x-svc-auth`. */
export class HttpClient {
  constructor(readonly baseUrl: string) {}

  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    return this.request<T>('POST', path, options);
  }

  put<T = unknown>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    return this.request<T>('PUT', path, options);
  }

  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['x-svc-auth'] = options.token;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if (/json/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
}
