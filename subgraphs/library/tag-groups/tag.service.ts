import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import type { Transaction } from '../../../platform/outbox/transaction-runner.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import { readerFor, type LibraryDependencies } from '../library-dependencies.js';
import { variablesLosingTags } from '../variables/tag-removal.js';
import { TagGroup } from './tag-group.entity.js';
import type { TagBody, TagUpdateBody, TagView } from './tag-group.schemas.js';
import { tagView } from './tag-group.views.js';
import { Tag } from './tag.entity.js';

const duplicateName =
  'Another tag of this group has this name (names of tags are compared with regard to case).';

/**
 * Tags of the caller's organization (spec 4.1). Tags carry no version (spec 2): their writes are
 * audited without one, and a PUT changes what it sends.
 */
export class TagService {
  constructor(private readonly deps: LibraryDependencies) {}

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<TagView>> {
    const known = requirePermission(caller, 'TagList');
    const [tags, total] = await readerFor(this.deps, known).findAndCount(
      Tag,
      {},
      { orderBy: { tagGroupId: 'asc', name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
    );
    return { total, items: tags.map(tagView) };
  }

  async get(caller: Caller | undefined, id: number): Promise<TagView> {
    const known = requirePermission(caller, 'TagRead');
    return tagView(await findTag(readerFor(this.deps, known), id));
  }

  async create(caller: Caller | undefined, body: TagBody): Promise<TagView> {
    const known = requirePermission(caller, 'TagCreate');
    return this.deps.transactions.run(async (tx) => {
      await findGroupNamed(tx.em, body.tagGroupId);
      const tag = tx.em.create(Tag, {
        organizationId: known.organizationId,
        tagGroupId: body.tagGroupId,
        name: body.name,
      });
      await this.flush(tx);
      const view = tagView(tag);
      this.record(tx, known, tag.id, { action: 'Create', after: view });
      return view;
    }, known.organizationId);
  }

  /** PUT /tags/{id}: a new name, or another group; a field left out keeps its stored value. */
  async update(caller: Caller | undefined, id: number, body: TagUpdateBody): Promise<TagView> {
    const known = requirePermission(caller, 'TagUpdate');
    return this.deps.transactions.run(async (tx) => {
      const tag = await findTag(tx.em, id, true);
      if (body.tagGroupId !== undefined) await findGroupNamed(tx.em, body.tagGroupId);
      const before = tagView(tag);
      tx.em.assign(tag, { name: body.name ?? tag.name, tagGroupId: body.tagGroupId ?? tag.tagGroupId });
      await this.flush(tx);
      const after = tagView(tag);
      this.record(tx, known, id, { action: 'Update', before, after });
      return after;
    }, known.organizationId);
  }

  /** DELETE /tags/{id}: its links to values go with it; each variable whose values lost it has its Update entry. */
  async remove(caller: Caller | undefined, id: number): Promise<TagView> {
    const known = requirePermission(caller, 'TagDelete');
    return this.deps.transactions.run(async (tx) => {
      const tag = await findTag(tx.em, id, true);
      const recordVariables = await variablesLosingTags(this.deps.writes, tx, known, [id]);
      const before = tagView(tag);
      await tx.em.nativeDelete(Tag, { id });
      this.record(tx, known, id, { action: 'Delete', before });
      await recordVariables();
      return before;
    }, known.organizationId);
  }

  private flush(tx: Transaction): Promise<void> {
    return withConstraintErrors(() => tx.em.flush(), {
      unique: duplicateName,
      foreignKey: () => new ConflictError('The tag group was deleted meanwhile.'),
    });
  }

  private record(
    tx: Transaction,
    caller: Caller,
    id: number,
    change:
      | { action: 'Create'; after: TagView }
      | { action: 'Update'; before: TagView; after: TagView }
      | { action: 'Delete'; before: TagView },
  ): void {
    this.deps.auditLog.record(tx.outbox, caller, {
      entryType: 'Tag',
      entityName: 'Tag',
      entityId: id,
      change,
    });
  }
}

/** The tag with this id in `em`'s organization, or 404; locked for the rest of the transaction when writing. */
async function findTag(em: EntityManager, id: number, forWrite = false): Promise<Tag> {
  const tag = await em.findOne(Tag, { id }, forWrite ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!tag) throw NotFoundError.entity('Tag', id);
  return tag;
}

/** The group a tag is put in: 400 naming body.tagGroupId when the organization has none of this id. */
async function findGroupNamed(em: EntityManager, tagGroupId: number): Promise<TagGroup> {
  const group = await em.findOne(TagGroup, { id: tagGroupId });
  if (!group) {
    throw BadRequestError.invalidFields([
      { field: 'body.tagGroupId', message: `no tag group ${tagGroupId} in this organization` },
    ]);
  }
  return group;
}
