import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { stampView } from '../library-views.js';
import { TagGroup } from './tag-group.entity.js';
import type { TagGroupView, TagView } from './tag-group.schemas.js';
import { Tag } from './tag.entity.js';

export function tagView(tag: Tag): TagView {
  return { id: tag.id, name: tag.name, tagGroupId: tag.tagGroupId };
}

/** Tag groups as the API answers them (without author names), each with its tags by name. */
export async function tagGroupViews(em: EntityManager, groups: TagGroup[]): Promise<TagGroupView[]> {
  const ids = groups.map((group) => group.id);
  const tags =
    ids.length === 0
      ? []
      : await em.find(Tag, { tagGroupId: { $in: ids } }, { orderBy: { name: 'asc', id: 'asc' } });
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    description: group.description,
    tags: tags.filter((tag) => tag.tagGroupId === group.id).map(tagView),
    ...stampView(group),
  }));
}

/** Tag groups as versioned, audited records. */
export const TAG_GROUPS: AuditedKind<TagGroup, TagGroupView> = {
  entity: TagGroup,
  entryType: 'TagGroup',
  label: 'Tag group',
  views: tagGroupViews,
};
