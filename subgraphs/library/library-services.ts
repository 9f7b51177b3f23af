import type { CertificateService } from './certificates/certificate.service.js';
import type { ImportService } from './import-export/import.service.js';
import type { ExportService } from './import-export/export.service.js';
import type { ResolutionService } from './resolution/resolution.service.js';
import type { VariableSetService } from './sets/variable-set.service.js';
import type { TagGroupService } from './tag-groups/tag-group.service.js';
import type { TagService } from './tag-groups/tag.service.js';
import type { VariableService } from './variables/variable.service.js';

/** The library service's use cases, as its adapters (REST, GraphQL) see them. */
export interface LibraryServices {
  tagGroups: TagGroupService;
  tags: TagService;
  sets: VariableSetService;
  variables: VariableService;
  resolution: ResolutionService;
  certificates: CertificateService;
  imports: ImportService;
  exports: ExportService;
}
