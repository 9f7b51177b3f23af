import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import type { Transaction } from '../../../platform/outbox/transaction-runner.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import type { Named } from '../authors.js';
import { parentCycle } from '../domain/set-ancestry.js';
import { refuseCycleUnderSet } from '../resolution/reference-check.js';
import { readerFor, type LibraryDependencies } from '../library-dependencies.js';
import { requireForSet, setScope } from '../set-scope.js';
import { mayReadSecrets } from '../variables/variable.service.js';
import { VARIABLES, variableViews, type VariableRecord } from '../variables/variable.views.js';
import { Variable } from '../variables/variable.entity.js';
import type { VariableSetBody, VariableSetUpdateBody } from './variable-set.schemas.js';
import { VARIABLE_SETS, variableSetView, type VariableSetRecord } from './variable-set.views.js';
import { VariableSet } from './variable-set.entity.js';
import { newSlug, takenSlugs } from './set-slugs.js';

const duplicateName =
  'Another library set of this organization has this name (names are compared without regard to case).';

/** A set with its variables, as a read alone answers it. */
export type VariableSetDetail = Named<VariableSetRecord> & { variables: Named<VariableRecord>[] };

/** Library sets of the caller's organization (spec 4.1 "Library sets and variables"). */
export class VariableSetService {
  constructor(private readonly deps: LibraryDependencies) {}

  /** GET /variablesets: VariableList; a restricted VariableList lists only the sets in its scope (CONTRACT 6). */
  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<Named<VariableSetRecord>>> {
    const known = requirePermission(caller, 'VariableList');
    const scope = setScope(known, 'VariableList');
    const [sets, total] = await readerFor(this.deps, known).findAndCount(
      VariableSet,
      scope ? { id: { $in: [...scope] } } : {},
      { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
    );
    return { total, items: await this.deps.authors.named(known, sets.map(variableSetView)) };
  }

  /**
   * GET /variablesets/{id}: VariableRead for the set; with its variables and values; costs
   * VariableGetCost, charged only once the set is found and the caller may read it.
   */
  async get(caller: Caller | undefined, id: number): Promise<VariableSetDetail> {
    const known = requirePermission(caller, 'VariableRead');
    const em = readerFor(this.deps, known);
    const set = await findSet(em, id);
    requireForSet(known, 'VariableRead', id);
    return this.deps.credits.charge(known, this.deps.costs().variableGetCost, () =>
      this.detail(em, known, set),
    );
  }

  /**
   * POST /variablesets: VariableCreate, unrestricted: a permission restricted to chosen sets
   * makes variables in them, not new sets (decisions "Set-restricted permissions").
   */
  async create(caller: Caller | undefined, body: VariableSetBody): Promise<VariableSetDetail> {
    const known = requirePermission(caller, 'VariableCreate');
    if (setScope(known, 'VariableCreate')) throw new ForbiddenError();
    const set = await this.deps.transactions.run(async (tx) => {
      if (body.parentVariableSetId !== null) await lockParent(tx.em, body.parentVariableSetId);
      const slug = newSlug(await takenSlugs(tx.em), body.name, body.slug);
      const created = await this.deps.writes.create(
        tx,
        known,
        VARIABLE_SETS,
        {
          organizationId: known.organizationId,
          name: body.name,
          slug,
          description: body.description,
          parentVariableSetId: body.parentVariableSetId,
        },
        { constraints: { unique: duplicateName } },
      );
      return created.row;
    }, known.organizationId);
    return this.detail(readerFor(this.deps, known), known, set);
  }

  /**
   * PUT /variablesets/{id}: VariableUpdate for the set. A new parent must be a set of the
   * organization that is not the set itself nor one of its descendants (400 naming the cycle);
   * parent changes of one organization take turns, so two of them cannot close a cycle together.
   */
  async update(
    caller: Caller | undefined,
    id: number,
    body: VariableSetUpdateBody,
  ): Promise<VariableSetDetail> {
    const known = requirePermission(caller, 'VariableUpdate');
    const set = await this.deps.transactions.run(async (tx) => {
      const parentChange = body.parentVariableSetId !== undefined;
      if (parentChange) await OrganizationRows.of(tx.em).takeTurns('variable-set-parents');
      let oldParentId: number | null = null;
      const updated = await this.deps.writes.update(tx, known, VARIABLE_SETS, id, {
        expectedVersion: body.version,
        constraints: { unique: duplicateName },
        change: async (row) => {
          requireForSet(known, 'VariableUpdate', id);
          oldParentId = row.parentVariableSetId ?? null;
          const parentId =
            body.parentVariableSetId === undefined
              ? (row.parentVariableSetId ?? null)
              : body.parentVariableSetId;
          if (parentChange && parentId !== null) await this.refuseCycle(tx, id, parentId);
          return {
            name: body.name ?? row.name,
            description: body.description ?? row.description,
            parentVariableSetId: parentId,
          };
        },
      });
      if (parentChange && oldParentId !== (updated.row.parentVariableSetId ?? null)) {
        await refuseCycleUnderSet(tx.em, id, oldParentId, 'body.parentVariableSetId');
      }
      return updated.row;
    }, known.organizationId);
    return this.detail(readerFor(this.deps, known), known, set);
  }

  /**
   * DELETE /variablesets/{id}: VariableDelete for the set; 409 while it is another's parent
   * (spec 2 rule 2). Its variables and values go with it, each variable with its Delete entry.
   */
  async remove(caller: Caller | undefined, id: number): Promise<VariableSetDetail> {
    const known = requirePermission(caller, 'VariableDelete');
    let detail: VariableSetDetail | undefined;
    await this.deps.transactions.run(
      (tx) =>
        this.deps.writes.remove(tx, known, VARIABLE_SETS, id, {
          beforeDelete: async (set) => {
            requireForSet(known, 'VariableDelete', id);
            const children = await tx.em.find(
              VariableSet,
              { parentVariableSetId: id },
              { orderBy: { id: 'asc' } },
            );
            if (children.length > 0) {
              throw new ConflictError(
                `Library set ${id} is the parent of ${children.map((child) => child.id).join(', ')}; re-point or remove them first.`,
              );
            }
            detail = await this.detail(tx.em, known, set);
            await this.recordVariablesDeleted(tx, known, id);
          },
        }),
      known.organizationId,
    );
    return detail!;
  }

  private async refuseCycle(tx: Transaction, setId: number, parentId: number): Promise<void> {
    await lockParent(tx.em, parentId);
    const sets = await tx.em.find(
      VariableSet,
      {},
      { fields: ['id', 'parentVariableSetId'], disableIdentityMap: true },
    );
    const parentOf = new Map(sets.map((set) => [set.id, set.parentVariableSetId ?? null]));
    const cycle = parentCycle(setId, parentId, parentOf);
    if (cycle) {
      throw BadRequestError.invalidFields([
        {
          field: 'body.parentVariableSetId',
          message: `would make library set ${setId} its own ancestor: ${cycle.join(' → ')}`,
        },
      ]);
    }
  }

  private async recordVariablesDeleted(tx: Transaction, caller: Caller, setId: number): Promise<void> {
    const variables = await tx.em.find(Variable, { variableSetId: setId }, { orderBy: { id: 'asc' } });
    for (const view of await VARIABLES.views(tx.em, variables)) {
      this.deps.auditLog.record(tx.outbox, caller, {
        entryType: 'Variable',
        entityName: 'Variable',
        entityId: view.id,
        version: view.version,
        change: { action: 'Delete', before: view },
      });
    }
  }

  /** The set with its variables by name, secrets shown where the caller may read them, authors named in one look-up. */
  private async detail(em: EntityManager, caller: Caller, set: VariableSet): Promise<VariableSetDetail> {
    const variables = await em.find(
      Variable,
      { variableSetId: set.id },
      { orderBy: { name: 'asc', id: 'asc' } },
    );
    const views = await variableViews(em, variables, {
      reveal: (variable) => mayReadSecrets(caller, variable),
      secrets: this.deps.secrets,
    });
    const record = variableSetView(set);
    const name = await this.deps.authors.lookup(caller, [record, ...views]);
    return { ...name(record), variables: views.map(name) };
  }
}

async function findSet(em: EntityManager, id: number): Promise<VariableSet> {
  const set = await em.findOne(VariableSet, { id });
  if (!set) throw NotFoundError.entity('Library set', id);
  return set;
}

/**
 * The parent named in a body, locked `FOR SHARE` to the end of the transaction: a delete of it
 * (which locks it for update, then counts its children) waits, and then sees this child. 400
 * naming the field when the organization has no such set.
 */
async function lockParent(em: EntityManager, parentId: number): Promise<void> {
  const parent = await em.findOne(VariableSet, { id: parentId }, { lockMode: LockMode.PESSIMISTIC_READ });
  if (!parent) {
    throw BadRequestError.invalidFields([
      { field: 'body.parentVariableSetId', message: `no library set ${parentId} in this organization` },
    ]);
  }
}
