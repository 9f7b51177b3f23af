import { decodeJwt } from 'jose';
import type { ApiKeyView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';

const BOOTSTRAP_KEY = 'bootstrap-key-of-the-bootstrap-test-0123456789';
const CHANGED_KEY = 'another-bootstrap-key-after-a-change-9876543210';
const YEAR = 366 * 24 * 60 * 60_000;
/** loggedBy of an entry written without a session. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit'],
    overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
  });
});

afterAll(() => system.stop());

const exchange = (running: TestSystem, key: string) =>
  running.client('identity').post('/apikeyjwt', { headers: { 'x-svc-api': key } });

/** The token the bootstrap key exchanges for; fails the test when it does not. */
async function operator(running: TestSystem, key = BOOTSTRAP_KEY): Promise<string> {
  const response = await exchange(running, key);
  expect(response.status).toBe(200);
  return response.headers.get('x-svc-auth')!;
}

/** What the bootstrap made, as the operator reads it through the account service. */
async function bootstrapped(running: TestSystem, key = BOOTSTRAP_KEY) {
  const token = await operator(running, key);
  const account = running.client('account');
  const organizations = (await account.get<{ items: OrganizationView[] }>('/organizations', { token })).body
    .items;
  const users = (await account.get<{ total: number; items: UserView[] }>('/users', { token })).body;
  const groups = (await account.get<{ total: number; items: GroupView[] }>('/groups', { token })).body;
  const bootstrap = users.items.find((user) => user.name === 'bootstrap');
  const keys = bootstrap
    ? (await account.get<{ items: ApiKeyView[] }>(`/users/${bootstrap.id}/apikeys`, { token })).body.items
    : [];
  return {
    token,
    system: organizations.filter((organization) => organization.name === 'System'),
    users,
    groups,
    bootstrap,
    keys,
  };
}

describe('CONTRACT 2: with SVC_BOOTSTRAP_API_KEY, the System organization, the bootstrap account and its group exist at start', () => {
  it('there is one organization System, and the token is for it', async () => {
    const state = await bootstrapped(system);
    expect(state.system).toHaveLength(1);
    expect(state.system[0]!.active).toBe(true);
    expect(decodeJwt(state.token).org).toBe(state.system[0]!.id);
  });

  it('the bootstrap account is a service account, the one account of System, in the group System administrators', async () => {
    const state = await bootstrapped(system);
    expect(state.users.total).toBe(1);
    expect(state.bootstrap).toMatchObject({ name: 'bootstrap', serviceAccount: true });
    expect(state.bootstrap!.groups.map((g) => g.name)).toEqual(['System administrators']);
    expect(decodeJwt(state.token).sub).toBe(state.bootstrap!.id);
  });

  it('System administrators holds every permission of the catalogue, as GET /permissions lists it, unrestricted', async () => {
    const state = await bootstrapped(system);
    const catalogue = await system
      .client('account')
      .get<{ permissions: { name: string }[] }>('/permissions', { token: state.token });
    expect(catalogue.status).toBe(200);
    const everything = catalogue.body.permissions.map((p) => p.name).sort();
    expect(everything).toEqual(PERMISSION_CATALOGUE.map((p) => p.name).sort());
    expect(state.groups.items.map((g) => g.name)).toEqual(['System administrators']);
    expect([...state.groups.items[0]!.permissions].sort()).toEqual(everything);
    expect(state.groups.items[0]!.variableSetIds).toEqual([]);
  });

  it('the key exchanges for a token holding PermissionsAllGlobal and every global permission, which works', async () => {
    const token = await operator(system);
    const permissions = decodeJwt(token).permissions as string[];
    expect(permissions).toContain('PermissionsAllGlobal');
    for (const global of PERMISSION_CATALOGUE.filter((p) => p.globalPermission)) {
      expect(permissions).toContain(global.name);
    }
    const created = await system.client('account').post<OrganizationView>('/organizations', {
      token,
      body: { name: 'Made by the bootstrap operator' },
    });
    expect(created.status).toBe(200);
  });

  it('the key is a key of the bootstrap account that never expires: a year later it still exchanges', async () => {
    const state = await bootstrapped(system);
    expect(state.keys).toHaveLength(1);
    expect(state.keys[0]).toMatchObject({ expiresAt: null, expired: false, hint: BOOTSTRAP_KEY.slice(-4) });
    system.clock.advance(YEAR);
    expect((await exchange(system, BOOTSTRAP_KEY)).status).toBe(200);
    system.clock.advance(YEAR);
    expect((await exchange(system, BOOTSTRAP_KEY)).status).toBe(200);
  });
});

describe('spec 6 / decisions "Bootstrap": the bootstrap writes its audit entries, without an author, the key as the API shows it', () => {
  it('Organization, Group and User Create entries, and a UserApiKey Create entry whose state is the key view with its owner', async () => {
    const state = await bootstrapped(system);
    const organizationId = state.system[0]!.id;
    await eventually(async () => {
      // Those the operator wrote since (an organization it created) have an author.
      const entries = (
        await auditEntries(system, organizationId, [{ field: 'Action', operatorType: 'eq', value: 'Create' }])
      ).filter((entry) => entry.loggedBy === NOBODY);
      expect(entries.map((entry) => entry.entryType).sort()).toEqual([
        'Group',
        'Organization',
        'User',
        'UserApiKey',
      ]);
      const byType = new Map(entries.map((entry) => [entry.entryType, entry]));
      for (const entry of entries) expect(entry.organizationId).toBe(organizationId);
      expect(byType.get('Organization')!.entityId).toBe(organizationId);
      expect(byType.get('User')!.entityId).toBe(state.bootstrap!.id);
      expect(byType.get('Group')!.entityId).toBe(String(state.groups.items[0]!.id));
      const key = byType.get('UserApiKey')!;
      expect(key.entityId).toBe(String(state.keys[0]!.id));
      expect(key.beforeState).toBeNull();
      expect(JSON.parse(key.afterState!)).toEqual({ ...state.keys[0], userId: state.bootstrap!.id });
      expect(key.afterState).not.toContain(BOOTSTRAP_KEY);
    });
  });
});

describe('CONTRACT 2: the bootstrap is idempotent across restarts, and a changed value replaces the old key', () => {
  let owner: TestSystem;
  let before: Awaited<ReturnType<typeof bootstrapped>>;

  beforeAll(async () => {
    owner = await startTestSystem({
      processes: ['account', 'identity', 'audit'],
      overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
    });
    before = await bootstrapped(owner);
    // The services stop; the database stays, to be started on again.
    await owner.system.stop();
  });

  // Stops nothing more (the services are already stopped) and drops the database.
  afterAll(() => owner.stop());

  /** Starts the system again on the database of the first start, runs the checks, and stops it. */
  async function restarted(
    key: string | undefined,
    checks: (running: TestSystem) => Promise<void>,
  ): Promise<void> {
    const running = await startTestSystem({
      processes: ['account', 'identity', 'audit'],
      overrides: { SVC_BOOTSTRAP_API_KEY: key },
      databaseUrl: owner.databaseUrl,
    });
    try {
      await checks(running);
    } finally {
      await running.stop();
    }
  }

  it('after a restart with the same key: still one System, one bootstrap account, one group, one key, and the key works', async () => {
    expect(before.system).toHaveLength(1);
    await restarted(BOOTSTRAP_KEY, async (running) => {
      const after = await bootstrapped(running);
      expect(after.system.map((o) => o.id)).toEqual(before.system.map((o) => o.id));
      expect(after.users.total).toBe(1);
      expect(after.bootstrap!.id).toBe(before.bootstrap!.id);
      expect(after.groups.items.map((g) => g.id)).toEqual(before.groups.items.map((g) => g.id));
      expect(after.groups.items[0]!.version).toBe(before.groups.items[0]!.version);
      expect(after.keys.map((k) => k.id)).toEqual(before.keys.map((k) => k.id));
      expect(decodeJwt(after.token).sub).toBe(before.bootstrap!.id);
    });
  });

  it('after a restart with a changed value: the old key no longer exchanges, the new one does, and it is the only bootstrap key', async () => {
    await restarted(CHANGED_KEY, async (running) => {
      expect((await exchange(running, BOOTSTRAP_KEY)).status).toBe(401);
      const after = await bootstrapped(running, CHANGED_KEY);
      expect(after.system.map((o) => o.id)).toEqual(before.system.map((o) => o.id));
      expect(after.bootstrap!.id).toBe(before.bootstrap!.id);
      expect(after.keys).toHaveLength(1);
      expect(after.keys[0]).toMatchObject({ expiresAt: null, hint: CHANGED_KEY.slice(-4) });
      expect(after.keys[0]!.id).not.toBe(before.keys[0]!.id);
      await eventually(async () => {
        const [removed] = await auditEntries(
          running,
          before.system[0]!.id,
          conditionsAbout('UserApiKey', before.keys[0]!.id, 'Delete'),
        );
        expect(removed).toMatchObject({ loggedBy: NOBODY, afterState: null });
        expect(JSON.parse(removed!.beforeState!)).toEqual({
          ...before.keys[0],
          userId: before.bootstrap!.id,
        });
      });
    });
  });

  it('two starts at once on the same database make one of everything', async () => {
    const starts = await Promise.all(
      [0, 1].map(() =>
        startTestSystem({
          processes: ['account'],
          overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
          databaseUrl: owner.databaseUrl,
        }),
      ),
    );
    await Promise.all(starts.map((started) => started.stop()));
    await restarted(BOOTSTRAP_KEY, async (running) => {
      const after = await bootstrapped(running);
      expect(after.system).toHaveLength(1);
      expect(after.users.total).toBe(1);
      expect(after.groups.total).toBe(1);
      expect(after.keys).toHaveLength(1);
      expect(after.keys[0]!.hint).toBe(BOOTSTRAP_KEY.slice(-4));
    });
  });

  it('a restart repairs the bootstrap: the account rejoins System administrators, and the group gets every permission back', async () => {
    await restarted(BOOTSTRAP_KEY, async (running) => {
      const state = await bootstrapped(running);
      const account = running.client('account');
      const group = state.groups.items[0]!;
      const narrowed = await account.put<GroupView>(`/groups/${group.id}`, {
        token: state.token,
        body: { name: group.name, description: group.description, permissions: ['UserList'] },
      });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.permissions).toEqual(['UserList']);
      const left = await account.put<UserView>(`/users/${state.bootstrap!.id}/groups`, {
        token: state.token,
        body: { groupIds: [] },
      });
      expect(left.status).toBe(200);
      expect(decodeJwt(await operator(running)).permissions).toEqual([]);
    });
    await restarted(BOOTSTRAP_KEY, async (running) => {
      const permissions = decodeJwt(await operator(running)).permissions as string[];
      expect([...permissions].sort()).toEqual(PERMISSION_CATALOGUE.map((p) => p.name).sort());
    });
  });

  it('decisions "Bootstrap": a start without SVC_BOOTSTRAP_API_KEY changes nothing; an operator revokes the key with DELETE /users/{id}/apikeys/{apiKeyId}, it stays revoked across starts without the setting, and a start with it makes the key again', async () => {
    let key: ApiKeyView | undefined;
    await restarted(BOOTSTRAP_KEY, async (running) => {
      key = (await bootstrapped(running)).keys[0];
      expect(key).toBeDefined();
    });
    const systemId = before.system[0]!.id;
    await restarted(undefined, async (running) => {
      // A replica or a service run alone without the setting leaves the key as it is.
      const state = await bootstrapped(running);
      expect(state.keys).toEqual([key]);
      const revoked = await running
        .client('account')
        .delete(`/users/${before.bootstrap!.id}/apikeys/${key!.id}`, { token: state.token });
      expect(revoked.status).toBe(204);
      expect((await exchange(running, BOOTSTRAP_KEY)).status).toBe(401);
      await eventually(async () => {
        const [removed] = await auditEntries(
          running,
          systemId,
          conditionsAbout('UserApiKey', key!.id, 'Delete'),
        );
        expect(removed).toMatchObject({
          organizationId: systemId,
          loggedBy: before.bootstrap!.id,
          afterState: null,
        });
        expect(JSON.parse(removed!.beforeState!)).toEqual({ ...key, userId: before.bootstrap!.id });
      });
    });
    await restarted(undefined, async (running) => {
      expect((await exchange(running, BOOTSTRAP_KEY)).status).toBe(401);
      const reader = await running.token({ organizationId: systemId, permissions: ['UserList', 'UserRead'] });
      const account = running.client('account');
      const users = await account.get<{ items: UserView[] }>('/users', { token: reader });
      expect(users.body.items.map((user) => user.id)).toEqual([before.bootstrap!.id]);
      const keys = await account.get<{ total: number }>(`/users/${before.bootstrap!.id}/apikeys`, {
        token: reader,
      });
      expect(keys.body.total).toBe(0);
    });
    await restarted(BOOTSTRAP_KEY, async (running) => {
      const after = await bootstrapped(running);
      expect(after.bootstrap!.id).toBe(before.bootstrap!.id);
      expect(after.keys).toHaveLength(1);
      expect(after.keys[0]!.id).not.toBe(key!.id);
    });
  });
});
