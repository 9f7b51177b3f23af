import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { projectPath } from '../../platform/project-path.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const run = promisify(execFile);
const BOOTSTRAP_KEY = 'the-readme-bootstrap-key-0123456789abcdef';
const README = readFileSync(projectPath('README.md'), 'utf8');

/** The README's `sh` blocks, in order. */
const shellBlocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({ overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY } });
});

afterAll(async () => {
  await system?.stop();
});

/** Runs a README block as written, but for the default addresses, which become the test system's. */
async function runBlock(block: string, env: Record<string, string>): Promise<string> {
  let script = block;
  for (const [name, port] of Object.entries({ library: 5001, account: 5002, identity: 5003, audit: 5004 })) {
    script = script.replaceAll(`http://127.0.0.1:${port}`, system.system.urls[name as 'library']!);
  }
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, ...env },
  });
  return stdout;
}

describe("issue 13 item 5: the README's claims are true", () => {
  it('the first administrator: the bootstrap key exchanged for a token creates an organization; its administrator signs in with POST /generatejwt and reads the library', async () => {
    const bootstrap = shellBlocks.find((block) => block.includes('/apikeyjwt'));
    const signIn = shellBlocks.find((block) => block.includes('/generatejwt'));
    expect(bootstrap).toBeDefined();
    expect(signIn).toBeDefined();
    const organization = JSON.parse(await runBlock(bootstrap!, { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY })) as {
      id: string;
      name: string;
    };
    expect(organization.name).toBe('Contoso');
    const sets = await runBlock(signIn!.replace('ORG_ID=...', `ORG_ID=${organization.id}`), {});
    expect(JSON.parse(sets)).toEqual({ total: 0, items: [] });
  });

  it('every service answers /healthz/startup, /openapi/v1.json and /docs/; the gateway /graphql, the playground and health but no OpenAPI; all of them /metrics', async () => {
    for (const name of ['account', 'audit', 'identity', 'library'] as const) {
      const client = system.client(name);
      expect((await client.get('/healthz/startup')).status).toBe(200);
      expect((await client.get('/openapi/v1.json')).status).toBe(200);
      expect((await client.get('/docs/')).status).toBe(200);
      expect((await client.get('/metrics')).status).toBe(200);
    }
    const gateway = system.client('gateway');
    expect((await gateway.get('/healthz/startup')).status).toBe(200);
    expect((await gateway.get('/')).text).toContain('GraphQL playground');
    expect((await gateway.post('/graphql', { body: { query: '{ __typename }' } })).status).toBe(200);
    expect((await gateway.get('/metrics')).status).toBe(200);
    expect((await gateway.get('/openapi/v1.json')).status).toBe(404);
  });
});
