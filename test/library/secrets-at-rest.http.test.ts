import { randomBytes } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { CertificateView } from '../../subgraphs/library/certificates/certificate.schemas.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { auditEntries } from '../support/audit-log.js';
import { makeCertificate } from '../support/certificates.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createVariable, IMPORTER, librarianToken } from '../support/library-factories.js';
import { queryDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
let organizationId: string;
let librarian: string;
let manager: string;
let setId: number;

const distinct = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** Every secret the organization writes, each text distinct enough to be found anywhere it leaked. */
const SECRETS = {
  string: distinct('string-secret'),
  multilineFirst: distinct('multiline-secret-one'),
  multilineSecond: distinct('multiline-secret-two'),
  json: distinct('json-secret'),
  number: 7182818.28459045,
  imported: distinct('imported-secret'),
  madeSensitive: distinct('made-sensitive-secret'),
  replaced: distinct('replaced-secret'),
  replacement: distinct('replacement-secret'),
  deleted: distinct('deleted-secret'),
};
/** Each secret as it would be written in any row or message. */
const SECRET_TEXTS = Object.values(SECRETS).map(String);

const MANAGE: PermissionName[] = ['GlobalOrganizationRead', 'GlobalOrganizationCertificateManage'];

/** The variables by name, and the values a caller with VariableReadSecrets reads. */
const expected: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'audit', 'library'],
    overrides: { 'Credits:IncludedCredits': 1_000_000 },
  });
  library = system.client('library');
  await captureOutboxMessages();
  organizationId = (await createOrganization(system, `Secrets at rest ${distinct('org')}`)).id;
  librarian = await librarianToken(system, organizationId);
  manager = await system.token({ permissions: MANAGE });
  setId = (await createSet(system, librarian, { name: 'Secrets' })).id;

  const variable = async (name: string, body: Record<string, unknown>) =>
    (ids[name] = (await createVariable(system, librarian, { name, variableSetId: setId, ...body })).id);
  await variable('ApiKey', { sensitive: true, values: [{ value: SECRETS.string }] });
  await variable('Certificate', {
    type: 'Multiline',
    sensitive: true,
    values: [{ value: `${SECRETS.multilineFirst}\n${SECRETS.multilineSecond}` }],
  });
  await variable('Settings', {
    type: 'Json',
    sensitive: true,
    values: [{ value: `{"token":"${SECRETS.json}"}` }],
  });
  await variable('Pin', { type: 'Number', values: [{ numberValue: SECRETS.number, sensitive: true }] });
  await variable('Plain', { values: [{ value: 'not a secret' }] });
  // Made sensitive by a PUT that also gives its new value: the value was never plain.
  await variable('Promoted', { values: [{ value: 'public before' }] });
  await expectStatus(
    library.put(`/variables/${ids.Promoted}`, {
      token: librarian,
      body: { sensitive: true, values: [{ value: SECRETS.madeSensitive }] },
    }),
    200,
  );
  await variable('Rotated', { sensitive: true, values: [{ value: SECRETS.replaced }] });
  await expectStatus(
    library.put(`/variables/${ids.Rotated}`, {
      token: librarian,
      body: { values: [{ value: SECRETS.replacement }] },
    }),
    200,
  );
  await variable('Gone', { sensitive: true, values: [{ value: SECRETS.deleted }] });
  await expectStatus(library.delete(`/variables/${ids.Gone}`, { token: librarian }), 200);
  delete ids.Gone;
  const importer = await system.token({
    organizationId,
    permissions: IMPORTER,
  });
  await expectStatus(
    library.post('/import', {
      token: importer,
      body: {
        librarySets: { Imported: { variables: { Token: [{ value: SECRETS.imported, sensitive: true }] } } },
      },
    }),
    200,
  );
  const imported = await expectStatus(
    library.get<{ items: VariableView[] }>('/variables', { token: librarian }),
    200,
  );
  ids.Token = imported.items.find((item) => item.name === 'Token')!.id;
  Object.assign(expected, {
    ApiKey: SECRETS.string,
    Certificate: `${SECRETS.multilineFirst}\n${SECRETS.multilineSecond}`,
    Settings: `{"token":"${SECRETS.json}"}`,
    Pin: String(SECRETS.number),
    Plain: 'not a secret',
    Promoted: SECRETS.madeSensitive,
    Rotated: SECRETS.replacement,
    Token: SECRETS.imported,
  });
});

afterAll(() => system.stop());

/**
 * A copy of every message written to any service's outbox, kept by a trigger in the test's own
 * schema: the relay deletes messages once published, and the test looks at all that were written.
 */
async function captureOutboxMessages(): Promise<void> {
  const outboxes = await queryDatabase<{ table_schema: string }>(
    system.databaseUrl,
    `select table_schema from information_schema.tables where table_name = 'outbox_message'`,
  );
  await queryDatabase(system.databaseUrl, 'create schema if not exists test_capture');
  await queryDatabase(
    system.databaseUrl,
    'create table if not exists test_capture.outbox_message (schema_name text, topic text, payload text)',
  );
  await queryDatabase(
    system.databaseUrl,
    `create or replace function test_capture.keep() returns trigger language plpgsql as $$
     begin insert into test_capture.outbox_message values (tg_table_schema, new.topic, new.payload::text); return new; end $$`,
  );
  for (const { table_schema: schema } of outboxes) {
    await queryDatabase(
      system.databaseUrl,
      `create trigger keep_for_test after insert on "${schema}"."outbox_message" for each row execute function test_capture.keep()`,
    );
  }
}

/** Every row of every table of the database (every service's schema, and the captured messages), as JSON text. */
async function everyRow(): Promise<{ table: string; row: string }[]> {
  const tables = await queryDatabase<{ table_schema: string; table_name: string }>(
    system.databaseUrl,
    `select table_schema, table_name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const rows: { table: string; row: string }[] = [];
  for (const { table_schema: schema, table_name: name } of tables) {
    const found = await queryDatabase<{ row: string }>(
      system.databaseUrl,
      `select row_to_json(t)::text as row from "${schema}"."${name}" t`,
    );
    rows.push(...found.map(({ row }) => ({ table: `${schema}.${name}`, row })));
  }
  return rows;
}

const sealedRows = () =>
  queryDatabase<{
    id: number;
    variable_id: number;
    value: string | null;
    number_value: number | null;
    sealed: string | null;
  }>(
    system.databaseUrl,
    `select v.id, v.variable_id, v.value, v.number_value, encode(v.sealed_value, 'hex') as sealed
     from library.variable_value v join library.variable x on x.id = v.variable_id
     where x.organization_id = $1 and x.sensitive order by v.id`,
    [organizationId],
  );

const dataKey = async () =>
  (
    await queryDatabase<{ generation: number; certificate_id: number | null }>(
      system.databaseUrl,
      'select generation, certificate_id from library.data_key where organization_id = $1',
      [organizationId],
    )
  )[0];

/** What a caller with VariableReadSecrets reads of every variable, through both read paths of `client`. */
async function readEverything(client: HttpClient, token = librarian): Promise<void> {
  const flat = await expectStatus(
    client.get<{ items: Record<string, string> }>(
      `/variablevalues?set=${setId}&set=${await importedSetId()}`,
      { token },
    ),
    200,
  );
  expect(flat.items).toEqual(expected);
  for (const [name, id] of Object.entries(ids)) {
    const variable = await expectStatus(client.get<VariableView>(`/variables/${id}`, { token }), 200);
    const value = variable.values[0]!;
    expect(value.numberValue !== null ? String(value.numberValue) : value.value).toBe(expected[name]);
  }
  const exporter = await system.token({
    organizationId,
    permissions: ['BatchProcessingExport', 'TagGroupRead', 'VariableRead', 'VariableReadSecrets'],
  });
  const exported = await expectStatus(
    client.get<{ librarySets: Record<string, { variables: Record<string, { value: unknown }[]> }> }>(
      `/export?variableSetId=${setId}&variableSetId=${await importedSetId()}&secretExportOption=Value`,
      { token: exporter },
    ),
    200,
  );
  const exportedValues = Object.fromEntries(
    Object.values(exported.librarySets).flatMap((set) =>
      Object.entries(set.variables).map(([name, values]) => [name, String(values[0]!.value)]),
    ),
  );
  expect(exportedValues).toEqual(expected);
}

let importedSet: number | undefined;
async function importedSetId(): Promise<number> {
  importedSet ??= (
    await expectStatus(
      library.get<{ variableSetId: number }>(`/variables/${ids.Token}`, { token: librarian }),
      200,
    )
  ).variableSetId;
  return importedSet;
}

/** A library service started afresh on the same database: nothing in its memory, its key unwrapped from what is stored. */
async function freshLibrary(): Promise<TestSystem> {
  return startTestSystem({
    processes: ['library'],
    databaseUrl: system.databaseUrl,
    queuePrefix: system.queuePrefix,
    overrides: {
      'Account:ApiUrl': system.system.urls.account,
      'Audit:AuditApiUrl': system.system.urls.audit,
    },
  });
}

describe("issue 12 item 4: every sensitive value is stored encrypted (AES-256-GCM) under its organization's data key", () => {
  it('its row holds no plain value or number, only sealed bytes; a plain variable stays plain', async () => {
    const rows = await sealedRows();
    expect(rows).toHaveLength(Object.keys(ids).length - 1);
    for (const row of rows) {
      expect(row.value).toBeNull();
      expect(row.number_value).toBeNull();
      expect(row.sealed).toMatch(/^[0-9a-f]+$/);
    }
    const [plain] = await queryDatabase<{ value: string; sealed_value: Buffer | null }>(
      system.databaseUrl,
      'select value, sealed_value from library.variable_value where variable_id = $1',
      [ids.Plain],
    );
    expect(plain).toEqual({ value: 'not a secret', sealed_value: null });
  });

  it('readers with VariableReadSecrets get every value back, through the read path, the variable reads and a Value export', async () => {
    await readEverything(library);
  });

  it('the database holds no secret text anywhere: library values, audit entries (states included), every outbox message, in every schema', async () => {
    // Every write's entries delivered first, so the audit schema holds all there will be.
    await eventually(async () => {
      const entries = await auditEntries(system, organizationId, [{ field: 'EntryType', value: 'Variable' }]);
      expect(entries.length).toBeGreaterThanOrEqual(10);
    });
    const rows = await everyRow();
    expect(rows.some((row) => row.table === 'test_capture.outbox_message')).toBe(true);
    expect(rows.some((row) => row.table.startsWith('audit.') && row.row.includes('"Variable"'))).toBe(true);
    const leaks = rows.flatMap(({ table, row }) =>
      SECRET_TEXTS.flatMap((secret) =>
        row.includes(secret) || row.includes(Buffer.from(secret).toString('hex'))
          ? [`${table} holds ${secret}`]
          : [],
      ),
    );
    expect(leaks).toEqual([]);
  });
});

describe('issue 12 item 4 and spec 3 "Certificate slots": the data key is wrapped by the primary certificate, or by the master key without one', () => {
  let primary: CertificateView;

  it('without a certificate the master key wraps it', async () => {
    expect(await dataKey()).toEqual({ generation: 1, certificate_id: null });
  });

  it('a primary certificate generated: a new key it wraps, every secret sealed again under it, every value still read', async () => {
    const before = await sealedRows();
    primary = await expectStatus(
      library.post<CertificateView>(`/organizations/${organizationId}/certificates/generate`, {
        token: manager,
        body: { slot: 'Primary' },
      }),
      200,
    );
    expect(await dataKey()).toEqual({ generation: 2, certificate_id: primary.id });
    const after = await sealedRows();
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    after.forEach((row, index) => expect(row.sealed).not.toBe(before[index]!.sealed));
    await readEverything(library);
  });

  it('a replacement uploaded changes nothing; a rotation seals every secret again under a key the new primary wraps', async () => {
    const replacement = await expectStatus(
      library.post<CertificateView>(`/organizations/${organizationId}/certificates/upload`, {
        token: manager,
        body: { slot: 'Replacement', ...(await makeCertificate()) },
      }),
      200,
    );
    expect(await dataKey()).toEqual({ generation: 2, certificate_id: primary.id });
    const before = await sealedRows();
    await expectStatus(
      library.post(`/organizations/${organizationId}/certificates/rotate`, { token: manager }),
      200,
    );
    expect(await dataKey()).toEqual({ generation: 3, certificate_id: replacement.id });
    const after = await sealedRows();
    after.forEach((row, index) => expect(row.sealed).not.toBe(before[index]!.sealed));
    await readEverything(library);
  });

  it('after the rotation the old certificate can be deleted with nothing lost: a library started afresh reads every secret', async () => {
    await expectStatus(
      library.delete(`/organizations/${organizationId}/certificates/Replacement`, { token: manager }),
      200,
    );
    const fresh = await freshLibrary();
    try {
      await readEverything(fresh.client('library'));
    } finally {
      await fresh.stop();
    }
  });

  it('deleting the primary wraps the key with the master key again (a new one, every secret sealed again), and nothing is lost', async () => {
    await expectStatus(
      library.delete(`/organizations/${organizationId}/certificates/Primary`, { token: manager }),
      200,
    );
    expect(await dataKey()).toEqual({ generation: 4, certificate_id: null });
    await readEverything(library);
    const fresh = await freshLibrary();
    try {
      await readEverything(fresh.client('library'));
    } finally {
      await fresh.stop();
    }
  });
});

describe("issue 12 item 4: an organization's first secret, written when it already has a primary certificate", () => {
  it('gets a data key wrapped by that certificate, and reads back, also by a library started afresh', async () => {
    const other = (await createOrganization(system, `Primary first ${distinct('org')}`)).id;
    const token = await librarianToken(system, other);
    const primary = await expectStatus(
      library.post<CertificateView>(`/organizations/${other}/certificates/generate`, {
        token: manager,
        body: { slot: 'Primary' },
      }),
      200,
    );
    const set = (await createSet(system, token, { name: 'First' })).id;
    const text = distinct('first-secret');
    const variable = await createVariable(system, token, {
      name: 'First',
      variableSetId: set,
      sensitive: true,
      values: [{ value: text }],
    });
    const [key] = await queryDatabase<{ generation: number; certificate_id: number | null }>(
      system.databaseUrl,
      'select generation, certificate_id from library.data_key where organization_id = $1',
      [other],
    );
    expect(key).toEqual({ generation: 1, certificate_id: primary.id });
    const fresh = await freshLibrary();
    try {
      const read = await expectStatus(
        fresh.client('library').get<VariableView>(`/variables/${variable.id}`, { token }),
        200,
      );
      expect(read.values[0]!.value).toBe(text);
    } finally {
      await fresh.stop();
    }
  });
});

describe('issue 12 item 4: values stored plain before are sealed when the service starts', () => {
  it('a sensitive value found plain is sealed at start, before the service serves, and read as it was', async () => {
    const legacy = distinct('legacy-plain-secret');
    // What an older version of the service stored: the text in the value column.
    await queryDatabase(
      system.databaseUrl,
      'update library.variable_value set value = $1, sealed_value = null where variable_id = $2',
      [legacy, ids.ApiKey],
    );
    const fresh = await freshLibrary();
    try {
      const [row] = await queryDatabase<{ value: string | null; sealed_value: Buffer | null }>(
        system.databaseUrl,
        'select value, sealed_value from library.variable_value where variable_id = $1',
        [ids.ApiKey],
      );
      expect(row!.value).toBeNull();
      expect(row!.sealed_value).not.toBeNull();
      expect(row!.sealed_value!.includes(Buffer.from(legacy))).toBe(false);
      const read = await expectStatus(
        fresh.client('library').get<VariableView>(`/variables/${ids.ApiKey}`, { token: librarian }),
        200,
      );
      expect(read.values[0]!.value).toBe(legacy);
    } finally {
      await fresh.stop();
    }
  });
});
