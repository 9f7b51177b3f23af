import { OutboxMessage } from '../../platform/outbox/outbox-message.entity.js';
import { Certificate } from './certificates/certificate.entity.js';
import { DataKey } from './secrets/data-key.entity.js';
import { LibraryRevision } from './resolution/library-revision.entity.js';
import { VariableSet } from './sets/variable-set.entity.js';
import { TagGroup } from './tag-groups/tag-group.entity.js';
import { Tag } from './tag-groups/tag.entity.js';
import { ValueTag } from './variables/value-tag.entity.js';
import { VariableValue } from './variables/variable-value.entity.js';
import { Variable } from './variables/variable.entity.js';

/** Every entity of the library schema. */
export const LIBRARY_ENTITIES = [
  TagGroup,
  Tag,
  VariableSet,
  Variable,
  VariableValue,
  ValueTag,
  LibraryRevision,
  Certificate,
  DataKey,
  OutboxMessage,
];
