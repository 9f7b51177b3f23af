import { defineRoute, type Route } from '../../platform/http/route.js';
import { importQuery, importResultView } from '../../subgraphs/library/import-export/import.schemas.js';
import type { ImportService } from '../../subgraphs/library/import-export/import.service.js';
import { libraryFile } from '../../subgraphs/library/import-export/library-file.schemas.js';

/** POST /import (spec 4.1 "Import"). */
export function importRoutes(imports: ImportService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/import',
      operationId: 'importLibrary',
      summary: 'Import a library file: tag groups, tags, library sets and their variables, by name',
      description:
        'Needs BatchProcessingImport and what it depends on (TagGroupList, TagGroupCreate, TagList, TagCreate, VariableList, VariableCreate), none restricted to chosen sets; replaceExisting=true also needs TagGroupDelete, TagDelete and VariableDelete. Names are the identity: what the organization has is left alone (one note each), a set matched by name only gains the variables it lacks. One transaction: a file that breaks any rule the API would refuse (a value of the wrong type, a sensitive Boolean, two values with the same scopes, a scope that is not "Group/Tag" or names no tag, a parent that names nothing or makes a cycle, a reference cycle, names equal without regard to case) is 400 naming each bad part by its JSON path, and nothing changes, not even the emptying of a replacing import. No secret permission is needed. Writes one LibraryImport audit entry (Merge or Replace). A body is at most 5 MB.',
      tag: 'Import and export',
      auth: 'required',
      query: importQuery,
      body: libraryFile,
      response: importResultView,
      errors: [403],
      handle: ({ caller, query, body }) => imports.import(caller, query, body),
    }),
  ];
}
