import { Migration20261122000000_audit_initial } from './Migration20261122000000_audit_initial.js';
import { Migration20261201000000_audit_entity_ids } from './Migration20261201000000_audit_entity_ids.js';
import { Migration20261202000000_audit_bigint_ids_parked } from './Migration20261202000000_audit_bigint_ids_parked.js';

/** Every migration of the audit schema, oldest first. Add new ones at the end; never edit an applied one. */
export const AUDIT_MIGRATIONS = [
  { name: 'Migration20261122000000_audit_initial', class: Migration20261122000000_audit_initial },
  { name: 'Migration20261201000000_audit_entity_ids', class: Migration20261201000000_audit_entity_ids },
  {
    name: 'Migration20261202000000_audit_bigint_ids_parked',
    class: Migration20261202000000_audit_bigint_ids_parked,
  },
];
