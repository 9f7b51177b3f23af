import type { User } from '../users/user.entity.js';
import type { Group } from './group.entity.js';
import type { GroupView } from './group.schemas.js';

export function groupView(group: Group, members: Pick<User, 'id' | 'name' | 'email'>[]): GroupView {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    permissions: group.permissions,
    variableSetIds: group.variableSetIds,
    members: members.map((member) => ({ id: member.id, name: member.name, email: member.email })),
    version: group.version,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}
