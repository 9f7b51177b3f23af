import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAN_PIN } from './pinned-process.js';

export interface WrkResult {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** Whether wrk is installed (Debian: `apt-get install wrk`). */
export const HAVE_WRK = spawnSync('wrk', ['-v']).error === undefined;

/**
 * Drives `paths` in turn against `baseUrl` with wrk (one thread, `connections` keep-alive
 * connections, pinned to `core`), and reads its report. Waits without blocking, so the caller
 * can watch the server meanwhile.
 */
export async function wrk(
  baseUrl: string,
  paths: string[],
  headers: Record<string, string>,
  options: { connections: number; seconds: number; core: number },
): Promise<WrkResult> {
  const script = join(mkdtempSync(join(tmpdir(), 'bench-wrk-')), 'paths.lua');
  writeFileSync(
    script,
    `local paths = {${paths.map((path) => JSON.stringify(path)).join(', ')}}
local n = 0
request = function()
  n = n % #paths + 1
  return wrk.format("GET", paths[n])
end
`,
  );
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    '-s',
    script,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    baseUrl,
  ];
  const command = CAN_PIN ? ['taskset', '-c', String(options.core), 'wrk', ...args] : ['wrk', ...args];
  const child = spawn(command[0]!, command.slice(1));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (status !== 0) throw new Error(`wrk failed: ${stderr}`);
  return parseReport(stdout);
}

function parseReport(report: string): WrkResult {
  const number = (pattern: RegExp) => Number(pattern.exec(report)?.[1] ?? 0);
  const latency = (percentile: string) => {
    const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(report);
    if (!match) return NaN;
    return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'];
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    perSecond: Math.round(number(/Requests\/sec:\s+([\d.]+)/)),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
  };
}
