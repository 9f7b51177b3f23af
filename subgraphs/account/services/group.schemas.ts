import { z } from 'zod';
import { isPermissionName } from '../../../platform/permissions/catalogue.js';

const permissionName = z
  .string()
  .refine(isPermissionName, { error: (issue) => `unknown permission "${String(issue.input)}"` });

/** POST /groups and PUT /groups/{id} (CONTRACT section 5). */
export const groupBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).default(''),
  permissions: z.array(permissionName).max(100).default([]),
  variableSetIds: z
    .array(z.number().int().positive())
    .max(1000)
    .default([])
    .describe("Library sets the group's Variable* permissions are restricted to; empty: all sets."),
  version: z
    .number()
    .int()
    .optional()
    .describe('On update: the version read; a different stored version is 409.'),
});
export type GroupBody = z.output<typeof groupBody>;

export const groupMembersBody = z.object({ userIds: z.array(z.uuid()).max(10_000) });

export const groupIdParams = z.object({
  id: z.coerce.number({ error: 'must be an integer' }).int().positive(),
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
