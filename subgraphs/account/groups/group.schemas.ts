import { z } from 'zod';
import { integerIdInput } from '../../../platform/http/query-schemas.js';
import { isPermissionName } from '../../../platform/permissions/catalogue.js';

const permissionName = z
  .string()
  .refine(isPermissionName, { error: (issue) => `unknown permission "${String(issue.input)}"` });

const groupName = z.string().trim().min(1).max(200);
const description = z.string().max(2000);
const permissions = z.array(permissionName).max(100);
const variableSetIds = z.array(z.number().int().positive()).max(1000);

/** POST /groups (CONTRACT section 5). */
export const groupBody = z.object({
  name: groupName,
  description: description.default(''),
  permissions: permissions.default([]),
  variableSetIds: variableSetIds
    .default([])
    .describe("Library sets the group's Variable* permissions are restricted to; absent or empty: all sets."),
});
export type GroupBody = z.output<typeof groupBody>;

/** PUT /groups/{id}: a field left out keeps its stored value, a field sent replaces it. */
export const groupUpdateBody = z.object({
  name: groupName.optional(),
  description: description.optional(),
  permissions: permissions
    .optional()
    .describe('The whole list; ones the caller cannot grant stay on the group. Absent: unchanged.'),
  variableSetIds: variableSetIds
    .optional()
    .describe(
      "Library sets the group's Variable* permissions are restricted to; empty: all sets. Absent: unchanged.",
    ),
  version: z.number().int().optional().describe('The version read; a different stored version is 409.'),
});
export type GroupUpdateBody = z.output<typeof groupUpdateBody>;

export const groupMembersBody = z.object({ userIds: z.array(z.uuid()).max(10_000) });

export const groupIdParams = z.object({
  id: integerIdInput(),
});

export const groupView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.string()),
    variableSetIds: z.array(z.number().int()),
    members: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string() })),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Group' });
export type GroupView = z.output<typeof groupView>;

export const permissionCatalogueView = z
  .object({
    permissions: z.array(
      z.object({
        name: z.string(),
        value: z.number().int(),
        globalPermission: z.boolean(),
        dependsOn: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'PermissionCatalogue' });
