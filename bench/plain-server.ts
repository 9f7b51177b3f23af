import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The yardstick of the read-path benchmark: a plain Node `http` server answering each path with
 * the status, headers and bytes the library answered it (read from the file named first), and
 * nothing else. `READY <port>` on stdout once it listens.
 */
interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Recorded>).map(
    ([path, answer]) => [path, { ...answer, bytes: Buffer.from(answer.body, 'base64') }],
  ),
);
const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers).end(answer.bytes);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
