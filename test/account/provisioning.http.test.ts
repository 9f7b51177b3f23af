import { randomUUID } from 'node:crypto';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { SessionAccountView, UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';
import { storeAccountPatterns } from './account-test-helpers.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import { expectStatus } from '../support/factories.js';

let system: TestSystem;
let account: HttpClient;
let globalAdmin: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
  account = system.client('account');
  globalAdmin = await system.token({
    permissions: ['GlobalOrganizationCreate', 'GlobalOrganizationUpdate', 'GlobalOrganizationRead'],
  });
});

afterAll(() => system.stop());

async function organization(body: Record<string, unknown> = {}): Promise<OrganizationView> {
  return expectStatus(
    account.post<OrganizationView>('/organizations', {
      token: globalAdmin,
      body: { name: `Provisioning ${randomUUID()}`, ...body },
    }),
    200,
  );
}

interface Login {
  organizationId: string;
  email: string;
  provider?: string;
  providerUserId?: string;
  name?: string;
  profileImage?: string | null;
}

const provision = (login: Login) =>
  account.post<SessionAccountView>('/users/provision', {
    body: { provider: 'Entra', providerUserId: randomUUID(), name: '', ...login },
  });

/** The account as the API answers it, read by an administrator of its organization. */
async function readUser(organizationId: string, id: string): Promise<UserView> {
  const token = await system.token({ organizationId, permissions: ['UserRead'] });
  return expectStatus(account.get<UserView>(`/users/${id}`, { token }), 200);
}

const NOT_GLOBAL = PERMISSION_CATALOGUE.filter((p) => !p.globalPermission).map((p) => p.name);

describe('spec 4.2: POST /users/provision creates an account only when a pattern or CONTRACT 4 allows it', () => {
  it('an address matching an account pattern gets an account, in no group, linked to the provider identity', async () => {
    const org = await organization({ accountPatterns: ['@pattern\\.example$'] });
    const session = await expectStatus(
      provision({
        organizationId: org.id,
        email: 'Ann@PATTERN.example',
        name: 'Ann',
        provider: 'Google',
        providerUserId: 'ann-sub',
      }),
      200,
    );
    expect(session).toMatchObject({
      user: { organizationId: org.id, name: 'Ann', email: 'Ann@PATTERN.example', serviceAccount: false },
      permissions: [],
      variableSets: {},
    });
    const user = await readUser(org.id, session.user.id);
    expect(user.groups).toEqual([]);
    expect(user.identities).toEqual([
      { provider: 'Google', providerUserId: 'ann-sub', linkedAt: expect.any(String) as unknown },
    ]);
  });

  it('CONTRACT 4: an address of adminEmails gets an account in Administrators, holding every non-global permission', async () => {
    const org = await organization({ adminEmails: ['boss@admins.example'] });
    const session = await expectStatus(
      provision({ organizationId: org.id, email: 'boss@admins.example' }),
      200,
    );
    expect([...session.permissions].sort()).toEqual([...NOT_GLOBAL].sort());
    const user = await readUser(org.id, session.user.id);
    expect(user.groups.map((group) => group.name)).toEqual(['Administrators']);
  });

  it('spec 6 / decisions "Provisioning": the Create entry holds the account as the API answers it (its group and its identity)', async () => {
    const org = await organization({ adminEmails: ['audited@admins.example'] });
    const session = await expectStatus(
      provision({ organizationId: org.id, email: 'audited@admins.example', name: 'Audited' }),
      200,
    );
    const user = await readUser(org.id, session.user.id);
    await eventually(async () => {
      const [created] = await auditEntries(system, org.id, conditionsAbout('User', user.id, 'Create'));
      expect(JSON.parse(created!.afterState!)).toEqual(user);
    });
  });

  it('an address no pattern allows is 403 and writes a ProvisionDenied entry; nothing is created', async () => {
    const org = await organization({
      accountPatterns: ['@allowed\\.example$'],
      adminEmails: ['a@allowed.example'],
    });
    const response = await provision({ organizationId: org.id, email: 'eve@elsewhere.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const users = await expectStatus(
      account.get<{ total: number }>('/users', {
        token: await system.token({ organizationId: org.id, permissions: ['UserList'] }),
      }),
      200,
    );
    expect(users.total).toBe(0);
    await eventually(async () => {
      const entries = await auditEntries(system, org.id, [
        { field: 'Action', operatorType: 'eq', value: 'ProvisionDenied' },
      ]);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ entryType: 'User', entityId: 'eve@elsewhere.example' });
    });
  });

  it('an unknown organization, and a disabled one, are 404', async () => {
    expect((await provision({ organizationId: randomUUID(), email: 'x@unknown.example' })).status).toBe(404);
    const disabled = await organization({ active: false, adminEmails: ['boss@disabled.example'] });
    expect((await provision({ organizationId: disabled.id, email: 'boss@disabled.example' })).status).toBe(
      404,
    );
  });

  it('spec 2: a stored pattern that does not compile (saved before saving refused it) is skipped, and the others still decide', async () => {
    const storedAsIs = async (patterns: string[]) => {
      const org = await organization({ accountPatterns: ['@placeholder\\.example$'] });
      await storeAccountPatterns(system, org.id, patterns);
      return org;
    };
    const org = await storedAsIs(['[', '^(a)\\1', '(?=x)', '@good\\.example$']);
    expect((await provision({ organizationId: org.id, email: 'aa@good.example' })).status).toBe(200);
    const onlyBad = await storedAsIs(['[', '^(a)\\1']);
    expect((await provision({ organizationId: onlyBad.id, email: 'aa@good.example' })).status).toBe(403);
    const reader = await system.token({ permissions: ['GlobalOrganizationRead'] });
    const stored = await expectStatus(
      account.get<OrganizationView>(`/organizations/${onlyBad.id}`, { token: reader }),
      200,
    );
    expect(stored.accountPatterns).toEqual(['[', '^(a)\\1']);
  });

  it('decisions "Account patterns": patterns run on RE2, so a catastrophic one for a backtracking engine answers promptly, and the service keeps answering', async () => {
    const org = await organization({ accountPatterns: ['(a+)+$'] });
    const started = Date.now();
    const response = await provision({ organizationId: org.id, email: `${'a'.repeat(30)}@x.com` });
    expect(response.status).toBe(403);
    // A backtracking engine would take a minute and more on these 30 a's; RE2 answers at once.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await account.get(`/organizations/${org.id}/signin`)).status).toBe(200);
  });

  it('400 names a bad field, such as an address that is not one', async () => {
    const org = await organization({ accountPatterns: ['@x\\.example$'] });
    const response = await account.post<Problem>('/users/provision', {
      body: { organizationId: org.id, provider: 'Google', providerUserId: 'p', email: 'not-an-address' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toContain('body.email');
  });
});

describe('spec 4.2: provisioning brings an existing account in step with the provider', () => {
  it('name, address and photo follow the provider; a new identity is linked; the Update entry holds the API view', async () => {
    const org = await organization({ accountPatterns: ['@step\\.example$'] });
    const first = await expectStatus(
      provision({
        organizationId: org.id,
        email: 'sam@step.example',
        name: 'Sam',
        provider: 'Google',
        providerUserId: 'sam-g',
      }),
      200,
    );
    const photo = 'data:image/png;base64,iVBORw0KGgo=';
    const second = await expectStatus(
      provision({
        organizationId: org.id,
        email: 'sam@step.example',
        name: 'Samuel',
        provider: 'Entra',
        providerUserId: 'sam-e',
        profileImage: photo,
      }),
      200,
    );
    expect(second.user.id).toBe(first.user.id);
    const user = await readUser(org.id, first.user.id);
    expect(user).toMatchObject({ name: 'Samuel', profileImage: photo });
    expect(user.identities.map((identity) => identity.providerUserId)).toEqual(['sam-g', 'sam-e']);
    await eventually(async () => {
      const entries = await auditEntries(system, org.id, [
        { field: 'EntityId', operatorType: 'eq', value: user.id },
      ]);
      expect(entries.map((entry) => entry.action).sort()).toEqual(['Create', 'LinkIdentity', 'Update']);
      const update = entries.find((entry) => entry.action === 'Update')!;
      expect(JSON.parse(update.afterState!)).toEqual(user);
      expect(JSON.parse(update.beforeState!)).toMatchObject({
        name: 'Sam',
        profileImage: null,
        identities: [{ provider: 'Google', providerUserId: 'sam-g' }],
      });
    });
  });
});

describe('spec 4.2 / decisions "Users": the provider\'s photo follows the account, and a photo that is not one we store never fails a login', () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgo=';
  const GOOGLE_PICTURE = 'https://lh3.googleusercontent.com/a/x';

  it("an https: address, as Google's picture claim gives it, is stored on the new account and follows a change", async () => {
    const org = await organization({ accountPatterns: ['@photo\\.example$'] });
    const login = {
      organizationId: org.id,
      email: 'pic@photo.example',
      provider: 'Google',
      providerUserId: 'pic',
    };
    const first = await expectStatus(provision({ ...login, profileImage: GOOGLE_PICTURE }), 200);
    expect((await readUser(org.id, first.user.id)).profileImage).toBe(GOOGLE_PICTURE);
    const changed = `${GOOGLE_PICTURE}=s96-c`;
    await expectStatus(provision({ ...login, profileImage: changed }), 200);
    expect((await readUser(org.id, first.user.id)).profileImage).toBe(changed);
  });

  it.each([
    ['an http: address', 'http://lh3.googleusercontent.com/a/x'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['an HTML data URL', 'data:text/html;base64,PHNjcmlwdD4='],
    ['an SVG data URL', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4='],
    ['an image over the bound', `data:image/png;base64,${'A'.repeat(700_000)}`],
  ])('%s: the login answers 200 and the account keeps its stored photo', async (_case, profileImage) => {
    const org = await organization({ accountPatterns: ['@photo\\.example$'] });
    const login = {
      organizationId: org.id,
      email: `kept-${randomUUID().slice(0, 8)}@photo.example`,
      provider: 'Google',
      providerUserId: randomUUID(),
    };
    const first = await expectStatus(provision({ ...login, profileImage: PNG }), 200);
    const again = await provision({ ...login, name: 'Renamed', profileImage });
    expect(again.status).toBe(200);
    expect(await readUser(org.id, first.user.id)).toMatchObject({ name: 'Renamed', profileImage: PNG });
    const fresh = await expectStatus(
      provision({ ...login, email: `new-${login.email}`, providerUserId: randomUUID(), profileImage }),
      200,
    );
    expect((await readUser(org.id, fresh.user.id)).profileImage).toBeNull();
  });
});

describe('decisions "Provisioning": concurrent first logins of one person answer as one login would (no 500 from the unique index)', () => {
  it('parallel provisions of one identity all answer 200 with the same account, and one account exists', async () => {
    const org = await organization({ accountPatterns: ['@rush\\.example$'] });
    const login = {
      organizationId: org.id,
      email: 'rush@rush.example',
      provider: 'Google',
      providerUserId: 'rush',
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => provision(login)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.user.id)).size).toBe(1);
    const list = await expectStatus(
      account.get<{ items: UserView[] }>('/users', {
        token: await system.token({ organizationId: org.id, permissions: ['UserList', 'UserRead'] }),
      }),
      200,
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.identities).toHaveLength(1);
  });

  it('parallel first logins of one address through two providers share one account, with both identities linked', async () => {
    const org = await organization({ adminEmails: ['twin@twins.example'] });
    const answers = await Promise.all(
      ['google-twin', 'entra-twin', 'google-twin', 'entra-twin'].map((providerUserId) =>
        provision({
          organizationId: org.id,
          email: 'twin@twins.example',
          provider: providerUserId.startsWith('google') ? 'Google' : 'Entra',
          providerUserId,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.user.id)).size).toBe(1);
    const user = await readUser(org.id, answers[0]!.body.user.id);
    expect(user.identities.map((identity) => identity.providerUserId).sort()).toEqual([
      'entra-twin',
      'google-twin',
    ]);
    expect(user.groups.map((group) => group.name)).toEqual(['Administrators']);
  });
});
