import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { TagGroupView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import type { VariableSetDetailView } from '../../subgraphs/library/sets/variable-set.schemas.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { expectStatus } from './factories.js';
import type { TestSystem } from './test-system.js';

/** Every library permission, unrestricted: for setting a library up. */
export const LIBRARY_PERMISSIONS: PermissionName[] = [
  'TagGroupList',
  'TagGroupRead',
  'TagGroupCreate',
  'TagGroupUpdate',
  'TagGroupDelete',
  'TagList',
  'TagRead',
  'TagCreate',
  'TagUpdate',
  'TagDelete',
  'VariableList',
  'VariableRead',
  'VariableReadSecrets',
  'VariableCreate',
  'VariableUpdate',
  'VariableDelete',
];

/** BatchProcessingImport with what it depends on (decisions "Permission catalogue"). */
export const IMPORTER: PermissionName[] = [
  'BatchProcessingImport',
  'TagGroupList',
  'TagGroupCreate',
  'TagList',
  'TagCreate',
  'VariableList',
  'VariableCreate',
];

/** A token of the organization holding every library permission. */
export function librarianToken(
  system: TestSystem,
  organizationId: string,
  accountId?: string,
): Promise<string> {
  return system.token({ organizationId, accountId, permissions: LIBRARY_PERMISSIONS });
}

/** Makes a tag group with its tags through the API. */
export async function createTagGroup(
  system: TestSystem,
  token: string,
  name: string,
  tags: string[] = [],
): Promise<TagGroupView> {
  const library = system.client('library');
  const group = await expectStatus(library.post<TagGroupView>('/taggroups', { token, body: { name } }), 200);
  for (const tag of tags) {
    await expectStatus(library.post('/tags', { token, body: { name: tag, tagGroupId: group.id } }), 200);
  }
  return expectStatus(library.get<TagGroupView>(`/taggroups/${group.id}`, { token }), 200);
}

/** Makes a library set through the API. */
export function createSet(
  system: TestSystem,
  token: string,
  body: { name: string; slug?: string; description?: string; parentVariableSetId?: number | null },
): Promise<VariableSetDetailView> {
  return expectStatus(
    system.client('library').post<VariableSetDetailView>('/variablesets', { token, body }),
    200,
  );
}

/** Makes a variable through the API. */
export function createVariable(
  system: TestSystem,
  token: string,
  body: Record<string, unknown>,
): Promise<VariableView> {
  return expectStatus(system.client('library').post<VariableView>('/variables', { token, body }), 200);
}

/**
 * Spec 4.1's permission column: the request is 403 with every other library permission (the
 * permission itself left out, with what depends on it), 401 without a session, and 200 with the
 * permission alone.
 */
export async function expectNeedsOnly(
  system: TestSystem,
  organizationId: string,
  permission: PermissionName,
  request: { method: string; path: string; body?: unknown },
): Promise<void> {
  const library = system.client('library');
  const others = LIBRARY_PERMISSIONS.filter(
    (other) => other !== permission && !(permission === 'VariableRead' && other === 'VariableReadSecrets'),
  );
  const send = async (permissions?: PermissionName[]) =>
    (
      await library.request(request.method.toUpperCase(), request.path, {
        token: permissions && (await system.token({ organizationId, permissions })),
        body: request.body,
      })
    ).status;
  expect(await send(others)).toBe(403);
  expect(await send()).toBe(401);
  expect(await send([permission])).toBe(200);
}
