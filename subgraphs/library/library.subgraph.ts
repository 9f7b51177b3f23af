import type { SubgraphClasses, SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import { CertificateResolver } from './certificates/certificate.resolver.js';
import { CertificateType } from './certificates/certificate.types.js';
import { ImportResolver } from './import-export/import.resolver.js';
import { ExportResolver } from './import-export/export.resolver.js';
import type { LibraryServices } from './library-services.js';
import { authorFieldsOf, UserReference } from './library.types.js';
import { ResolutionResolver } from './resolution/resolution.resolver.js';
import { VariableSetResolver } from './sets/variable-set.resolver.js';
import { VariableSetType } from './sets/variable-set.types.js';
import { TagGroupResolver } from './tag-groups/tag-group.resolver.js';
import { TagGroupType } from './tag-groups/tag-group.types.js';
import { VariableResolver } from './variables/variable.resolver.js';
import { VariableObjectType } from './variables/variable.types.js';

const AUTHOR_FIELDS = [TagGroupType, VariableSetType, VariableObjectType, CertificateType].map(
  authorFieldsOf,
);

/**
 * The library subgraph: the same reads and writes as the REST facade's tag group, tag, set,
 * variable, value and certificate paths, with the same checks, withholding and errors; who made and changed a record
 * are the account subgraph's Users.
 */
export const LIBRARY_SUBGRAPH: SubgraphClasses = {
  resolvers: [
    TagGroupResolver,
    VariableSetResolver,
    VariableResolver,
    ResolutionResolver,
    CertificateResolver,
    ImportResolver,
    ExportResolver,
    ...AUTHOR_FIELDS,
  ],
  orphanedTypes: [UserReference],
};

export function librarySubgraph(services: LibraryServices): SubgraphDefinition {
  return {
    classes: LIBRARY_SUBGRAPH,
    instances: [
      new TagGroupResolver(services.tagGroups, services.tags),
      new VariableSetResolver(services.sets),
      new VariableResolver(services.variables),
      new ResolutionResolver(services.resolution),
      new CertificateResolver(services.certificates),
      new ImportResolver(services.imports),
      new ExportResolver(services.exports),
      ...AUTHOR_FIELDS.map((fields) => new fields()),
    ],
  };
}
