/** Stops the embedded PostgreSQL of global-setup.ts, if it started one (its data is temporary). */
export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { embeddedTestDatabase?: { stop(): Promise<void> } }).embeddedTestDatabase;
  await server?.stop();
}
