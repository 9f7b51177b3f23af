import { randomBytes } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { makeCertificate } from '../support/certificates.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import { queryDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;

const MANAGE: PermissionName[] = ['GlobalOrganizationRead', 'GlobalOrganizationCertificateManage'];
const secret = (label: string) => `${label}-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'audit', 'library'],
    overrides: { 'CreditCosts:VariablePreviewCost': 0, 'CreditCosts:VariableGetCost': 0 },
  });
  library = system.client('library');
});

afterAll(() => system.stop());

/** Runs `step` again and again until stopped, each run awaited; answers how many ran. */
function keepRunning(step: () => Promise<void>): { stop: () => Promise<number> } {
  let running = true;
  let runs = 0;
  const loop = (async () => {
    while (running) {
      await step();
      runs += 1;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return runs;
    },
  };
}

describe('issue 12 item 6 journey: certificates generated, uploaded, rotated and deleted while programs keep reading secrets', () => {
  it('every answer of GET /variablevalues and GET /variables/{id} is right throughout, while secrets are also written', async () => {
    const organizationId = (await createOrganization(system, secret('Certificate journey'))).id;
    const librarian = await librarianToken(system, organizationId);
    const manager = await system.token({ permissions: MANAGE });
    const environment = await createTagGroup(system, librarian, 'Environment', ['Prod', 'Dev']);
    const noise = (await createTagGroup(system, librarian, 'Noise')).id;
    const setId = (await createSet(system, librarian, { name: 'Service' })).id;
    const keys = { default: secret('key-default'), prod: secret('key-prod') };
    const apiKey = await createVariable(system, librarian, {
      name: 'ApiKey',
      variableSetId: setId,
      sensitive: true,
      values: [{ value: keys.default }, { value: keys.prod, tags: ['Environment/Prod'] }],
    });
    await createVariable(system, librarian, {
      name: 'Pin',
      type: 'Number',
      variableSetId: setId,
      sensitive: true,
      values: [{ numberValue: 4821.5 }],
    });
    await createVariable(system, librarian, {
      name: 'Url',
      variableSetId: setId,
      values: [{ value: 'https://service.example/@[ApiKey]' }],
    });
    const counter = await createVariable(system, librarian, {
      name: 'Counter',
      variableSetId: setId,
      sensitive: true,
      values: [{ value: 'counter-secret-0' }],
    });
    expect(environment.tags).toHaveLength(2);

    const failures: string[] = [];
    const expectedFor = (key: string) => ({
      ApiKey: key,
      Pin: '4821.5',
      Url: `https://service.example/${key}`,
    });
    /** A reader of the read path, for one tag set; Counter only ever moves forward. */
    const reader = (query: string, key: string) => {
      let lastCounter = 0;
      return keepRunning(async () => {
        const response = await library.get<{ items: Record<string, string> }>(
          `/variablevalues?set=${setId}${query}`,
          {
            token: librarian,
          },
        );
        if (response.status !== 200) {
          failures.push(`${query}: ${response.status} ${response.text}`);
          return;
        }
        const { Counter, ...rest } = response.body.items;
        const seen = Number(/^counter-secret-(\d+)$/.exec(Counter ?? '')?.[1] ?? NaN);
        if (JSON.stringify(rest) !== JSON.stringify(expectedFor(key)) || !(seen >= lastCounter)) {
          failures.push(`${query}: ${JSON.stringify(response.body.items)}`);
        }
        lastCounter = seen;
      });
    };
    const readers = [
      reader('', keys.default),
      reader('&tag=Environment/Prod', keys.prod),
      reader('&tag=Environment/Dev', keys.default),
      // The variable reads open its values afresh each time (no snapshot).
      keepRunning(async () => {
        const response = await library.get<VariableView>(`/variables/${apiKey.id}`, { token: librarian });
        const values = response.status === 200 ? response.body.values.map((value) => value.value).sort() : [];
        if (JSON.stringify(values) !== JSON.stringify([keys.default, keys.prod].sort())) {
          failures.push(`GET /variables/${apiKey.id}: ${response.status} ${response.text}`);
        }
      }),
    ];
    // Meanwhile a writer: a secret written (the snapshot patched) and a tag made (the library read whole), again and again.
    let written = 0;
    let version = counter.version;
    const writer = keepRunning(async () => {
      written += 1;
      const response = await library.put<VariableView>(`/variables/${counter.id}`, {
        token: librarian,
        body: { version, values: [{ value: `counter-secret-${written}` }] },
      });
      if (response.status !== 200) failures.push(`PUT Counter: ${response.status} ${response.text}`);
      else version = response.body.version;
      if (written % 3 === 0) {
        const tag = await library.post('/tags', {
          token: librarian,
          body: { name: `n${written}`, tagGroupId: noise },
        });
        if (tag.status !== 200) failures.push(`POST /tags: ${tag.status} ${tag.text}`);
      }
    });

    const certificates = `/organizations/${organizationId}/certificates`;
    const wrapping = async () =>
      (
        await queryDatabase<{ certificate_id: number | null }>(
          system.databaseUrl,
          'select certificate_id from library.data_key where organization_id = $1',
          [organizationId],
        )
      )[0]!.certificate_id;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
    const step = async <T>(method: 'post' | 'delete', path: string, body?: unknown): Promise<T> => {
      const answer = await expectStatus(
        library[method]<T>(`${certificates}${path}`, { token: manager, body }),
        200,
      );
      await pause();
      return answer;
    };
    try {
      await pause();
      const first = await step<{ id: number }>('post', '/generate', { slot: 'Primary' });
      expect(await wrapping()).toBe(first.id);
      const second = await step<{ id: number }>('post', '/upload', {
        slot: 'Replacement',
        ...(await makeCertificate()),
      });
      await step('post', '/rotate');
      expect(await wrapping()).toBe(second.id);
      await step('delete', '/Replacement');
      const third = await step<{ id: number }>('post', '/generate', { slot: 'Replacement' });
      await step('post', '/rotate');
      expect(await wrapping()).toBe(third.id);
      await step('delete', '/Replacement');
      await step('delete', '/Primary');
      expect(await wrapping()).toBeNull();
      await step('post', '/generate', { slot: 'Primary' });
    } finally {
      const writes = await writer.stop();
      const reads = await Promise.all(readers.map((running) => running.stop()));
      expect(failures).toEqual([]);
      expect(writes).toBeGreaterThan(5);
      for (const count of reads) expect(count).toBeGreaterThan(10);
    }
    // And once all is quiet, the last secret written is what every reader gets.
    const last = await expectStatus(
      library.get<{ items: Record<string, string> }>(`/variablevalues?set=${setId}`, { token: librarian }),
      200,
    );
    expect(last.items).toEqual({ ...expectedFor(keys.default), Counter: `counter-secret-${written}` });
  });
});
