import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadRequest } from './load.js';

interface Job {
  baseUrl: string;
  request: LoadRequest;
  concurrency: number;
  seconds: number;
}

const job = workerData as Job;
const url = new URL(job.baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
let sent = 0;

function once(): Promise<boolean> {
  const bodies = job.request.bodies;
  const body = bodies ? bodies[sent++ % bodies.length] : undefined;
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: job.request.path,
        method: job.request.method,
        headers: job.request.headers,
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve((res.statusCode ?? 500) < 300));
      },
    );
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

const latencies: number[] = [];
let failures = 0;
const end = performance.now() + job.seconds * 1000;
const loop = async (): Promise<void> => {
  while (performance.now() < end) {
    const started = performance.now();
    if (await once()) latencies.push(performance.now() - started);
    else failures += 1;
  }
};
const began = performance.now();
await Promise.all(Array.from({ length: job.concurrency }, loop));
const elapsed = (performance.now() - began) / 1000;
latencies.sort((a, b) => a - b);
const at = (fraction: number): number =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0;
agent.destroy();
parentPort!.postMessage({
  requests: latencies.length,
  failures,
  perSecond: Math.round(latencies.length / elapsed),
  p50Ms: Number(at(0.5).toFixed(2)),
  p99Ms: Number(at(0.99).toFixed(2)),
});
