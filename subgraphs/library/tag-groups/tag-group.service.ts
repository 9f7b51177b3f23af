import type { Caller } from '../../../platform/auth/caller.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { NotFoundError } from '../../../platform/errors/domain-errors.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import type { Named } from '../authors.js';
import { readerFor, type LibraryDependencies } from '../library-dependencies.js';
import { variablesLosingTags } from '../variables/tag-removal.js';
import { TagGroup } from './tag-group.entity.js';
import type { TagGroupBody, TagGroupUpdateBody, TagGroupView } from './tag-group.schemas.js';
import { TAG_GROUPS, tagGroupViews } from './tag-group.views.js';
import { Tag } from './tag.entity.js';

const duplicateName =
  'Another tag group of this organization has this name (names are compared without regard to case).';

/** Tag groups of the caller's organization (spec 4.1 "Tag groups and tags"). */
export class TagGroupService {
  constructor(private readonly deps: LibraryDependencies) {}

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<Named<TagGroupView>>> {
    const known = requirePermission(caller, 'TagGroupList');
    const em = readerFor(this.deps, known);
    const [groups, total] = await em.findAndCount(
      TagGroup,
      {},
      { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
    );
    return { total, items: await this.deps.authors.named(known, await tagGroupViews(em, groups)) };
  }

  async get(caller: Caller | undefined, id: number): Promise<Named<TagGroupView>> {
    const known = requirePermission(caller, 'TagGroupRead');
    const em = readerFor(this.deps, known);
    const group = await em.findOne(TagGroup, { id });
    if (!group) throw notFound(id);
    return this.deps.authors.one(known, (await tagGroupViews(em, [group]))[0]!);
  }

  async create(caller: Caller | undefined, body: TagGroupBody): Promise<Named<TagGroupView>> {
    const known = requirePermission(caller, 'TagGroupCreate');
    const created = await this.deps.transactions.run(
      (tx) =>
        this.deps.writes.create(
          tx,
          known,
          TAG_GROUPS,
          { organizationId: known.organizationId, name: body.name, description: body.description },
          { constraints: { unique: duplicateName } },
        ),
      known.organizationId,
    );
    return this.deps.authors.one(known, created.view);
  }

  /** PUT /taggroups/{id}: a field left out keeps its stored value; the version read is checked (409). */
  async update(
    caller: Caller | undefined,
    id: number,
    body: TagGroupUpdateBody,
  ): Promise<Named<TagGroupView>> {
    const known = requirePermission(caller, 'TagGroupUpdate');
    const updated = await this.deps.transactions.run(
      (tx) =>
        this.deps.writes.update(tx, known, TAG_GROUPS, id, {
          expectedVersion: body.version,
          constraints: { unique: duplicateName },
          change: (group) => ({
            name: body.name ?? group.name,
            description: body.description ?? group.description,
          }),
        }),
      known.organizationId,
    );
    return this.deps.authors.one(known, updated.view);
  }

  /**
   * DELETE /taggroups/{id}: its tags go with it, and with them their links to values (spec 2);
   * each removed tag has its Delete entry, each variable whose values lost tags its Update entry.
   */
  async remove(caller: Caller | undefined, id: number): Promise<Named<TagGroupView>> {
    const known = requirePermission(caller, 'TagGroupDelete');
    const removed = await this.deps.transactions.run(async (tx) => {
      let recordVariables = async (): Promise<void> => undefined;
      const view = await this.deps.writes.remove(tx, known, TAG_GROUPS, id, {
        beforeDelete: async (_group, before) => {
          const tags = await tx.em.find(Tag, { tagGroupId: id });
          recordVariables = await variablesLosingTags(
            this.deps.writes,
            tx,
            known,
            tags.map((tag) => tag.id),
          );
          for (const tag of before.tags) {
            this.deps.auditLog.record(tx.outbox, known, {
              entryType: 'Tag',
              entityName: 'Tag',
              entityId: tag.id,
              change: { action: 'Delete', before: tag },
            });
          }
        },
      });
      await recordVariables();
      return view;
    }, known.organizationId);
    return this.deps.authors.one(known, removed);
  }
}

function notFound(id: number) {
  return NotFoundError.entity('Tag group', id);
}
