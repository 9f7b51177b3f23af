import { openDatabase, type Database } from '../../platform/db/database.js';
import { OrganizationRows } from '../../platform/db/organization-rows.js';
import { lockForNoKeyUpdate } from '../../platform/db/row-locks.js';
import { scopeToOrganization } from '../../platform/db/tenancy.js';
import { createLogger } from '../../platform/logging/logger.js';
import { ACCOUNT_SCHEMA } from '../../launcher/services/account.js';
import { ACCOUNT_ENTITIES } from '../../subgraphs/account/account-entities.js';
import { Group } from '../../subgraphs/account/groups/group.entity.js';
import { ACCOUNT_MIGRATIONS } from '../../subgraphs/account/migrations/index.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createGroup, createOrganization } from '../support/factories.js';

let system: TestSystem;
let orm: Database;
let ours: string;
let theirs: string;
let theirGroup: number;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account'] });
  orm = await openDatabase({
    url: system.databaseUrl,
    schema: ACCOUNT_SCHEMA,
    entities: ACCOUNT_ENTITIES,
    migrations: ACCOUNT_MIGRATIONS,
    logger: createLogger('silent'),
  });
  ours = (await createOrganization(system, 'Rows ours')).id;
  theirs = (await createOrganization(system, 'Rows theirs')).id;
  await createGroup(system, ours, { name: 'Ours' });
  theirGroup = (await createGroup(system, theirs, { name: 'Theirs' })).id;
});

afterAll(async () => {
  await orm.close();
  await system.stop();
});

const scoped = (organizationId: string) => scopeToOrganization(orm.em.fork(), organizationId);

describe('spec 1 tenancy / decisions "Tenancy": plain rows are read only with their organization', () => {
  it("reads the organization's rows only", async () => {
    const rows = await OrganizationRows.of(scoped(ours)).query<{ name: string }>(
      'select name from "account"."user_group" where organization_id = ? order by name',
    );
    expect(rows.map((row) => row.name)).toEqual(['Administrators', 'Ours']);
  });

  it.each([
    ['a statement that never names organization_id', 'select name from "account"."user_group" where id = ?'],
    [
      'one whose first parameter is not the organization',
      'select 1 from "account"."user_group" where id = ? and organization_id = ?',
    ],
  ])('refuses %s before it runs', async (_name, sql) => {
    await expect(OrganizationRows.of(scoped(ours)).query(sql, [theirGroup])).rejects.toThrow(
      'must take organization_id first',
    );
  });

  it('cannot be had from an entity manager without an organization', () => {
    expect(() => OrganizationRows.of(orm.em.fork())).toThrow('not scoped to an organization');
  });

  it("a version-check lock in one organization never locks another's row of the same id", async () => {
    const em = scoped(ours);
    await em.transactional(async (tx) => {
      await lockForNoKeyUpdate(tx, Group, { id: theirGroup });
      // Their row is free: a lock that must not wait succeeds from another transaction.
      const free = await scoped(theirs).transactional((other) =>
        other.execute('select 1 from "account"."user_group" where id = ? for no key update nowait', [
          theirGroup,
        ]),
      );
      expect(free).toHaveLength(1);
    });
  });
});
