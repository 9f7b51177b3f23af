import type { Caller } from '../../../platform/auth/caller.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { ForbiddenError } from '../../../platform/errors/domain-errors.js';
import { holds, requirePermission } from '../../../platform/permissions/authorize.js';
import { exportFile, type SecretExportOption } from '../domain/library-export.js';
import type { LibraryDependencies } from '../library-dependencies.js';
import { requireForSet } from '../set-scope.js';
import { readExported, requireExported } from './export.rows.js';
import type { LibraryFile } from './library-file.schemas.js';

/** What an export asks for (GET /export's query, exportLibrary's arguments), parsed. */
export interface ExportRequest {
  tagGroupIds: readonly number[];
  variableSetIds: readonly number[];
  secretExportOption: SecretExportOption;
}

/**
 * GET /export (spec 4.1 "Export"): the named tag groups and library sets as a library file, which
 * POST /import takes back. Checked in this order, so that a refused request reads nothing of the
 * library and costs nothing: BatchProcessingExport (with TagGroupRead and VariableRead, which it
 * depends on), VariableReadSecrets for `Value` (403); every id the organization's (404); every set
 * in the caller's VariableRead scope, and for `Value` its VariableReadSecrets scope (403); then the
 * credit gate, VariableGetCost per set (429 when the organization cannot afford them all); then
 * the library is read, and the call charged once the file is made.
 */
export class ExportService {
  constructor(private readonly deps: Pick<LibraryDependencies, 'orm' | 'credits' | 'costs' | 'secrets'>) {}

  async export(caller: Caller | undefined, request: ExportRequest): Promise<LibraryFile> {
    const known = requirePermission(caller, 'BatchProcessingExport');
    const revealed = request.secretExportOption === 'Value';
    // Never downgraded to another option (spec 4.1 "Export" rule 3).
    if (revealed && !holds(known, 'VariableReadSecrets')) throw new ForbiddenError();
    const selection = {
      tagGroupIds: [...new Set(request.tagGroupIds)],
      setIds: [...new Set(request.variableSetIds)],
    };
    await requireExported(new OrganizationRows(this.deps.orm.em.fork(), known.organizationId), selection);
    for (const setId of selection.setIds) {
      requireForSet(known, 'VariableRead', setId);
      if (revealed) requireForSet(known, 'VariableReadSecrets', setId);
    }
    const cost = selection.setIds.length * this.deps.costs().variableGetCost;
    return this.deps.credits.charge(known, cost, async () =>
      exportFile(
        await readExported(
          this.deps.orm,
          known.organizationId,
          selection,
          revealed ? this.deps.secrets : undefined,
        ),
        request.secretExportOption,
      ),
    );
  }
}
