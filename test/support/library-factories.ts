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
  body: { name: string; description?: string; parentVariableSetId?: number | null },
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
