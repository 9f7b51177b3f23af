import { Worker } from 'node:worker_threads';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** Bodies sent in turn, one per request. */
  bodies?: string[];
}

export interface LoadResult {
  name: string;
  requests: number;
  failures: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Drives `request` against `baseUrl` from `concurrency` keep-alive connections for
 * `seconds`. The load runs in a worker thread (node:http, not fetch, which costs more CPU
 * per request than the service under test), so it uses the other core, not the service's.
 */
export function load(
  name: string,
  baseUrl: string,
  request: LoadRequest,
  options: { concurrency: number; seconds: number },
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), {
      workerData: { baseUrl, request, ...options },
    });
    worker.once('message', (result: Omit<LoadResult, 'name'>) => resolve({ name, ...result }));
    worker.once('error', reject);
  });
}
