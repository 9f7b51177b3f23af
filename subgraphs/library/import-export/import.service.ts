import type { Caller } from '../../../platform/auth/caller.js';
import { BadRequestError, ForbiddenError } from '../../../platform/errors/domain-errors.js';
import { jsonPath } from '../../../platform/http/json-path.js';
import { holds, requirePermission } from '../../../platform/permissions/authorize.js';
import { planImport } from '../domain/import-plan.js';
import type { LibraryDependencies } from '../library-dependencies.js';
import { refuseCyclesThroughVariables } from '../resolution/reference-check.js';
import { setScope } from '../set-scope.js';
import { takenSlugs } from '../sets/set-slugs.js';
import { emptyLibrary, NOTHING_DELETED, readExistingLibrary } from './existing-library.js';
import type { ImportQuery, ImportResultView } from './import.schemas.js';
import { writePlan } from './import-writes.js';
import type { LibraryFile } from './library-file.schemas.js';

/** POST /import (spec 4.1 "Import"): a library file merged into, or replacing, the organization's library. */
export class ImportService {
  constructor(private readonly deps: LibraryDependencies) {}

  /**
   * One transaction: a replacing import empties the library, the file is planned against what
   * is left, refused whole (400 naming each bad part by its JSON path) or written whole, reference
   * cycles checked as the write leaves the library, and one LibraryImport entry recorded (spec 6:
   * the organization as the entity, the counts as afterState, notes left out). A refusal rolls
   * everything back, the emptying included. Sensitive values get their hint and hash where every
   * write gets them (value-plan.ts); no secret permission is needed (spec 2). `location` is where
   * the file came from, which the 400's paths start with.
   */
  async import(
    caller: Caller | undefined,
    query: ImportQuery,
    file: LibraryFile,
    location = 'body',
  ): Promise<ImportResultView> {
    const known = requireImporter(caller, query.replaceExisting);
    const author = { organizationId: known.organizationId, accountId: known.accountId };
    return this.deps.transactions.run(async (tx) => {
      // Before any value row is touched (the emptying deletes some): a rekey waits for this
      // import, or this import for it, never each for the other.
      const cipher = holdsSecrets(file) ? await this.deps.secrets.forWriting(tx.em) : undefined;
      // Set makers take turns on slugs; importers also take turns with one another from here.
      await takenSlugs(tx.em);
      const deleted = query.replaceExisting ? await emptyLibrary(tx.em) : NOTHING_DELETED;
      const existing = await readExistingLibrary(tx.em);
      const outcome = planImport(known.organizationId, file, existing);
      if (!outcome.ok) {
        throw BadRequestError.invalidFields(
          outcome.problems.map((problem) => ({
            field: jsonPath(location, problem.path),
            message: problem.message,
          })),
        );
      }
      const written = await writePlan(tx.em, author, outcome.plan, existing, this.deps.clock.now(), cipher);
      await refuseCyclesThroughVariables(
        tx.em,
        written.map((variable) => ({ id: variable.id, field: jsonPath(location, variable.path) })),
      );
      const counts = { replaced: query.replaceExisting, ...outcome.plan.counts, ...deleted };
      this.deps.auditLog.record(tx.outbox, author, {
        entryType: 'LibraryImport',
        entityName: 'Organization',
        entityId: known.organizationId,
        change: { action: query.replaceExisting ? 'Replace' : 'Merge', after: counts },
      });
      return { ...counts, notes: outcome.plan.notes };
    }, known.organizationId);
  }
}

/** Whether a file marks any value sensitive: its values are then written sealed. */
function holdsSecrets(file: LibraryFile): boolean {
  return Object.values(file.librarySets).some((set) =>
    Object.values(set.variables).some((values) => values.some((value) => value.sensitive)),
  );
}

/**
 * BatchProcessingImport with what it depends on, none of it restricted to chosen sets (an import
 * makes sets, which a restricted grant cannot); a replacing import also removes every tag group,
 * tag, set and variable, so it needs their Delete permissions, unrestricted (decisions "Import").
 */
function requireImporter(caller: Caller | undefined, replacing: boolean): Caller {
  const known = requirePermission(caller, 'BatchProcessingImport');
  const deletes = ['TagGroupDelete', 'TagDelete', 'VariableDelete'] as const;
  const restricted = setScope(known, 'VariableCreate') ?? setScope(known, 'VariableList');
  if (restricted) throw new ForbiddenError();
  if (replacing && (deletes.some((name) => !holds(known, name)) || setScope(known, 'VariableDelete'))) {
    throw new ForbiddenError();
  }
  return known;
}
