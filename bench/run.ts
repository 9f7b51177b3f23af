/** `npm run bench -- <name> [args...]` runs bench/<name>.bench.ts. */
const [name, ...rest] = process.argv.slice(2);
const benches = ['audit', 'import', 'resolution'];
if (!name || !benches.includes(name)) {
  process.stderr.write(`Choose a benchmark: ${benches.join(', ')}\n`);
  process.exit(2);
}
process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
await import(`./${name}.bench.js`);
