import { z } from 'zod';
import { integerIdInput, pageSchema } from '../../../platform/http/query-schemas.js';
import { descriptionField, nameField, stampFields, versionField } from '../library-views.js';

/** A group name cannot hold `/`: a tag is written `Group/Tag`, split at its first `/`. */
export const groupName = nameField('tag group').refine((name) => !name.includes('/'), {
  message: 'cannot hold a "/": tags are written Group/Tag',
});

/** POST /taggroups (spec 4.1). */
export const tagGroupBody = z.object({ name: groupName, description: descriptionField.default('') });
export type TagGroupBody = z.output<typeof tagGroupBody>;

/** PUT /taggroups/{id}: a field left out keeps its stored value. */
export const tagGroupUpdateBody = z.object({
  name: groupName.optional(),
  description: descriptionField.optional(),
  version: versionField,
});
export type TagGroupUpdateBody = z.output<typeof tagGroupUpdateBody>;

/** A tag as every answer shows it (spec 4.1 preview: {id, name, tagGroupId}). */
export const tagView = z
  .object({ id: z.number().int(), name: z.string(), tagGroupId: z.number().int() })
  .meta({ id: 'Tag' });
export type TagView = z.output<typeof tagView>;

export const tagGroupView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    tags: z.array(tagView).describe('Its tags, by name.'),
    ...stampFields,
  })
  .meta({ id: 'TagGroup' });
export type TagGroupView = z.output<typeof tagGroupView>;
export const tagGroupPage = pageSchema(tagGroupView, 'TagGroupPage');

/** POST /tags (spec 4.1). A tag name may hold `/`: only the first `/` of `Group/Tag` separates. */
export const tagBody = z.object({
  name: nameField('tag'),
  tagGroupId: z.number().int().positive().describe('A tag group of the organization.'),
});
export type TagBody = z.output<typeof tagBody>;

/** PUT /tags/{id}: "body as create"; a field left out keeps its stored value. Tags carry no version. */
export const tagUpdateBody = tagBody.partial();
export type TagUpdateBody = z.output<typeof tagUpdateBody>;

export const tagPage = pageSchema(tagView, 'TagPage');

export const libraryIdParams = z.object({ id: integerIdInput() });
