import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Whether processes can be pinned to cores here: taskset exists and there are two cores or more. */
export const CAN_PIN = availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Pins this process (the load generator's side) to `core`, when it can be. */
export function pinSelf(core: number): void {
  if (CAN_PIN) spawnSync('taskset', ['-cp', String(core), String(process.pid)]);
}

export interface Started {
  child: ChildProcess;
  /** What it printed up to and including the line it was waited for. */
  output: string;
  stop(): Promise<void>;
}

/**
 * Starts `node <script> ...args` on `core` (taskset execs in place, so the pid is node's, and
 * the processes it starts, an embedded PostgreSQL say, share the core), and waits for stdout to
 * match `ready`. Its stderr is passed through.
 */
export function startPinned(
  core: number,
  script: string,
  args: string[],
  nodeOptions: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<Started> {
  const command = CAN_PIN ? ['taskset', '-c', String(core), process.execPath] : [process.execPath];
  const child = spawn(command[0]!, [...command.slice(1), ...nodeOptions, script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) =>
      reject(new Error(`${script} exited (${code}) before it was ready:\n${output}`)),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        child,
        output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** A process's resident memory now and at its peak, in MB (Linux /proc). */
export function residentMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

export interface MemoryUnderLoad {
  /** Resident when the load ended. */
  rssMb: number;
  /** The most resident while it ran (sampled every 250 ms). */
  loadMaxMb: number;
  /** The most resident since the process started (building the library included). */
  peakMb: number;
}

/**
 * Watches process `pid`'s resident memory while `load` runs. A V8 process's RSS swings with its
 * collector (the garbage of a while is resident until a full collection frees it), so one
 * reading at the end says less than the most it took under the load.
 */
export async function memoryUnder<T>(
  pid: number,
  load: Promise<T>,
): Promise<{ result: T; memory: MemoryUnderLoad }> {
  let loadMaxMb = residentMemory(pid).rssMb;
  const sampler = setInterval(() => (loadMaxMb = Math.max(loadMaxMb, residentMemory(pid).rssMb)), 250);
  try {
    const result = await load;
    const { rssMb, peakMb } = residentMemory(pid);
    return { result, memory: { rssMb, loadMaxMb: Math.max(loadMaxMb, rssMb), peakMb } };
  } finally {
    clearInterval(sampler);
  }
}
