import { JSONObject } from '../../../platform/graphql/json-object.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Ctx, Mutation, Resolver } from '../../../platform/graphql/type-graphql.js';
import { parseInput } from '../../../platform/http/validation.js';
import { importQuery } from './import.schemas.js';
import type { ImportService } from './import.service.js';
import { ImportResultType } from './import.types.js';
import { libraryFile } from './library-file.schemas.js';

/** POST /import through GraphQL: the same file, rules, permissions and audit entry. */
@Resolver()
export class ImportResolver {
  constructor(private readonly imports: ImportService) {}

  @Mutation(() => ImportResultType, {
    description:
      'Imports a library file (the body of POST /import: tag groups, tags, library sets and their variables, by name). Needs BatchProcessingImport and what it depends on; replaceExisting also the Delete permissions. A file breaking any rule is refused whole, naming each bad part by its path under args.file.',
  })
  importLibrary(
    @Arg('file', () => JSONObject) file: unknown,
    @Arg('replaceExisting', () => Boolean, { defaultValue: false }) replaceExisting: boolean,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<ImportResultType> {
    return this.imports.import(
      caller,
      parseInput(importQuery, { replaceExisting }, 'args'),
      parseInput(libraryFile, file, 'args.file'),
      'args.file',
    );
  }
}
