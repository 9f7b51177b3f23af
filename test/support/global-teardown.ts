import { rmSync } from 'node:fs';

/** Stops the embedded PostgreSQL of global-setup.ts, if it started one, and removes its folder (its data is temporary). */
export default async function globalTeardown(): Promise<void> {
  const started = globalThis as {
    embeddedTestDatabase?: { stop(): Promise<void> };
    embeddedTestFolder?: string;
  };
  await started.embeddedTestDatabase?.stop();
  if (started.embeddedTestFolder) rmSync(started.embeddedTestFolder, { recursive: true, force: true });
}
