import { defineRoute, type Route } from '../../platform/http/route.js';
import { exportQuery } from '../../subgraphs/library/import-export/export.schemas.js';
import type { ExportService } from '../../subgraphs/library/import-export/export.service.js';
import { libraryFile } from '../../subgraphs/library/import-export/library-file.schemas.js';

/** GET /export (spec 4.1 "Export"). */
export function exportRoutes(service: ExportService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/export',
      operationId: 'exportLibrary',
      summary: 'The named tag groups and library sets as a library file',
      description:
        "Needs BatchProcessingExport, with TagGroupRead and VariableRead (which it depends on), VariableRead for every set named (a set outside a restricted scope is 403), and for secretExportOption=Value VariableReadSecrets for every set named (403 otherwise). Answers the body POST /import takes: exactly the tag groups (with all their tags) and sets named, names sorted; each set's variables with their values as stored (@[Name] references left as written), each value's tags as scopes; a set's parent only when it is named too (by its slug). At least one tagGroupId or variableSetId is needed (400); an id not in the organization is 404. Costs CreditCosts:VariableGetCost per set, none per tag group: the organization must afford every set named, else the whole request is 429 with a plain-text body, before any of the library is read; a request that fails costs nothing.",
      tag: 'Import and export',
      auth: 'required',
      query: exportQuery,
      response: libraryFile,
      errors: [403, 404, 429],
      handle: ({ caller, query }) =>
        service.export(caller, {
          tagGroupIds: query.tagGroupId,
          variableSetIds: query.variableSetId,
          secretExportOption: query.secretExportOption,
        }),
    }),
  ];
}
