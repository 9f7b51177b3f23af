import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { Page } from '../../../platform/http/query-schemas.js';
import type { Transaction } from '../../../platform/outbox/transaction-runner.js';
import { holdsForSet, requirePermission } from '../../../platform/permissions/authorize.js';
import type { Named } from '../authors.js';
import { planStoredValues, planWrittenValues } from '../domain/value-plan.js';
import { readerFor, type LibraryDependencies } from '../library-dependencies.js';
import { refuseCycleThroughVariable } from '../resolution/reference-check.js';
import { requireForSet, setScope } from '../set-scope.js';
import { VariableSet } from '../sets/variable-set.entity.js';
import { currentValues, knownTags, plannedOrRefused, storeValues } from './value-store.js';
import type { VariableBody, VariableListQuery, VariableUpdateBody } from './variable.schemas.js';
import { VARIABLES, variableViews, type SecretsShown, type VariableRecord } from './variable.views.js';
import { Variable } from './variable.entity.js';

const duplicateName =
  'Another variable of this set has this name (names are compared without regard to case).';

/** Variables of the caller's organization (spec 4.1 "Library sets and variables"). */
export class VariableService {
  constructor(private readonly deps: LibraryDependencies) {}

  /** GET /variables: VariableList; only the sets in the caller's scope. */
  async list(caller: Caller | undefined, query: VariableListQuery): Promise<Page<Named<VariableRecord>>> {
    const known = requirePermission(caller, 'VariableList');
    const scope = setScope(known, 'VariableList');
    const em = readerFor(this.deps, known);
    const where = {
      ...(query.variableSetId !== undefined ? { variableSetId: query.variableSetId } : {}),
      ...(scope
        ? {
            variableSetId: {
              $in: [...scope].filter((id) => query.variableSetId === undefined || id === query.variableSetId),
            },
          }
        : {}),
    };
    const [variables, total] = await em.findAndCount(Variable, where, {
      orderBy: { variableSetId: 'asc', name: 'asc', id: 'asc' },
      limit: query.take,
      offset: query.skip,
    });
    const views = await variableViews(em, variables, this.secretsShownTo(known));
    return { total, items: await this.deps.authors.named(known, views) };
  }

  /** GET /variables/{id}: VariableRead for its set; costs VariableGetCost (spec 8), charged once it is found and readable. */
  async get(caller: Caller | undefined, id: number): Promise<Named<VariableRecord>> {
    const known = requirePermission(caller, 'VariableRead');
    const em = readerFor(this.deps, known);
    const variable = await findVariable(em, id);
    requireForSet(known, 'VariableRead', variable.variableSetId);
    return this.deps.credits.charge(known, this.deps.costs().variableGetCost, () =>
      this.answer(em, known, variable),
    );
  }

  /** POST /variables: VariableCreate for the set. Writing a sensitive value needs nothing more. */
  async create(caller: Caller | undefined, body: VariableBody): Promise<Named<VariableRecord>> {
    const known = requirePermission(caller, 'VariableCreate');
    const sensitive = body.sensitive || body.values.some((value) => value.sensitive === true);
    refuseSensitiveBoolean(body.type, sensitive, 'body.sensitive');
    const variable = await this.deps.transactions.run(async (tx) => {
      const cipher = sensitive ? await this.deps.secrets.forWriting(tx.em) : undefined;
      await this.findSetFor(tx.em, known, 'VariableCreate', body.variableSetId);
      const planned = plannedOrRefused(
        planWrittenValues(
          known.organizationId,
          { type: body.type, sensitive },
          body.values,
          await knownTags(tx.em),
          [],
        ),
        'body.values',
      );
      const created = await this.deps.writes.create(
        tx,
        known,
        VARIABLES,
        {
          organizationId: known.organizationId,
          variableSetId: body.variableSetId,
          name: body.name,
          type: body.type,
          sensitive,
        },
        {
          constraints: { unique: duplicateName },
          afterInsert: (row) => storeValues(tx.em, known.organizationId, row.id, planned, [], cipher),
        },
      );
      await refuseCycleThroughVariable(tx.em, created.row.id, 'body.values');
      this.deps.transactions.onlyVariables(tx, [created.row.id]);
      return created.row;
    }, known.organizationId);
    return this.answer(readerFor(this.deps, known), known, variable);
  }

  /**
   * PUT /variables/{id}: VariableUpdate for its set (and for the set it moves to). A field left
   * out keeps its stored value; `values`, when sent, is the whole list. Sensitivity only goes
   * from false to true (409 otherwise); a Boolean stays a Boolean and nothing becomes one (400);
   * any other type change converts the stored values or is 400 naming the one that cannot be.
   */
  async update(
    caller: Caller | undefined,
    id: number,
    body: VariableUpdateBody,
  ): Promise<Named<VariableRecord>> {
    const known = requirePermission(caller, 'VariableUpdate');
    const variable = await this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, VARIABLES, id, {
        expectedVersion: body.version,
        constraints: { unique: duplicateName },
        change: (row) => this.changeOf(tx, known, row, body),
      });
      await refuseCycleThroughVariable(tx.em, id, cycleField(body));
      this.deps.transactions.onlyVariables(tx, [id]);
      return updated.row;
    }, known.organizationId);
    return this.answer(readerFor(this.deps, known), known, variable);
  }

  /** DELETE /variables/{id}: VariableDelete for its set; answers the removed variable, its values included. */
  async remove(caller: Caller | undefined, id: number): Promise<Named<VariableRecord>> {
    const known = requirePermission(caller, 'VariableDelete');
    let shown: VariableRecord | undefined;
    await this.deps.transactions.run(async (tx) => {
      await this.deps.writes.remove(tx, known, VARIABLES, id, {
        // The audit state withholds secrets; the caller is shown them as a read would show them.
        beforeDelete: async (row) => {
          requireForSet(known, 'VariableDelete', row.variableSetId);
          [shown] = await variableViews(tx.em, [row], this.secretsShownTo(known));
        },
      });
      this.deps.transactions.onlyVariables(tx, [id]);
    }, known.organizationId);
    return this.deps.authors.one(known, shown!);
  }

  private async changeOf(tx: Transaction, caller: Caller, row: Variable, body: VariableUpdateBody) {
    requireForSet(caller, 'VariableUpdate', row.variableSetId);
    if (body.variableSetId !== undefined && body.variableSetId !== row.variableSetId) {
      await this.findSetFor(tx.em, caller, 'VariableUpdate', body.variableSetId);
    }
    const type = body.type ?? row.type;
    if (type !== row.type && (type === 'Boolean' || row.type === 'Boolean')) {
      throw BadRequestError.invalidFields([
        {
          field: 'body.type',
          message:
            row.type === 'Boolean' ? 'a Boolean variable keeps its type' : 'no variable becomes a Boolean',
        },
      ]);
    }
    const sensitive =
      row.sensitive || body.sensitive === true || (body.values ?? []).some((v) => v.sensitive === true);
    if (row.sensitive && body.sensitive === false) {
      throw new ConflictError(`Variable ${row.id} is sensitive, and sensitivity only increases.`);
    }
    refuseSensitiveBoolean(type, sensitive, 'body.sensitive');
    // Its values are stored sealed, or are to be: their data key first, before any value row.
    const cipher = sensitive ? await this.deps.secrets.forWriting(tx.em) : undefined;
    const current = await currentValues(tx.em, row.id, cipher);
    const plan =
      body.values !== undefined
        ? planWrittenValues(
            caller.organizationId,
            { type, sensitive },
            body.values,
            await knownTags(tx.em),
            current,
          )
        : planStoredValues(caller.organizationId, row.type, { type, sensitive }, current);
    const planned = plannedOrRefused(plan, body.values !== undefined ? 'body.values' : 'values');
    await storeValues(tx.em, caller.organizationId, row.id, planned, current, cipher);
    return {
      name: body.name ?? row.name,
      variableSetId: body.variableSetId ?? row.variableSetId,
      type,
      sensitive,
    };
  }

  /** The set a variable is written to: 400 when the organization has none of this id, 403 outside the caller's scope. */
  private async findSetFor(
    em: EntityManager,
    caller: Caller,
    permission: 'VariableCreate' | 'VariableUpdate',
    setId: number,
  ): Promise<VariableSet> {
    const set = await em.findOne(VariableSet, { id: setId });
    if (!set) {
      throw BadRequestError.invalidFields([
        { field: 'body.variableSetId', message: `no library set ${setId} in this organization` },
      ]);
    }
    requireForSet(caller, permission, setId);
    return set;
  }

  /** The caller's view of secrets: its sets' values opened where it may read them. */
  private secretsShownTo(caller: Caller): SecretsShown {
    return { reveal: (variable) => mayReadSecrets(caller, variable), secrets: this.deps.secrets };
  }

  private async answer(
    em: EntityManager,
    caller: Caller,
    variable: Variable,
  ): Promise<Named<VariableRecord>> {
    const [view] = await variableViews(em, [variable], this.secretsShownTo(caller));
    return this.deps.authors.one(caller, view!);
  }
}

/** Whether the caller sees this variable's secrets (spec 2: VariableRead and VariableReadSecrets, for its set). */
export function mayReadSecrets(caller: Caller, variable: Pick<Variable, 'variableSetId'>): boolean {
  return holdsForSet(caller, 'VariableReadSecrets', variable.variableSetId);
}

/** What an update that closes a reference cycle is blamed on: its values, else its new name, else its move. */
function cycleField(body: VariableUpdateBody): string {
  if (body.values !== undefined) return 'body.values';
  return body.name !== undefined ? 'body.name' : 'body.variableSetId';
}

/** CONTRACT 6: a Boolean variable is never sensitive; creating one so, or making one so, is 400. */
function refuseSensitiveBoolean(type: string, sensitive: boolean, field: string): void {
  if (type === 'Boolean' && sensitive) {
    throw BadRequestError.invalidFields([{ field, message: 'a Boolean variable is never sensitive' }]);
  }
}

export async function findVariable(em: EntityManager, id: number): Promise<Variable> {
  const variable = await em.findOne(Variable, { id });
  if (!variable) throw NotFoundError.entity('Variable', id);
  return variable;
}
