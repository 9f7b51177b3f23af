/**
 * A container's health check (docker-compose.yml): exits 0 when the address answers 2xx, else 1.
 * The service's image has no curl or wget; Node's fetch is all it needs.
 */
const address = process.argv[2];
if (!address) {
  process.stderr.write('usage: node dist/launcher/healthcheck.js <url>\n');
  process.exit(2);
}
try {
  const response = await fetch(address, { signal: AbortSignal.timeout(2_500) });
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`${address}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
