import { Migration20261122000000_audit_initial } from './Migration20261122000000_audit_initial.js';

/** Every migration of the audit schema, oldest first. Add new ones at the end; never edit an applied one. */
export const AUDIT_MIGRATIONS = [
  { name: 'Migration20261122000000_audit_initial', class: Migration20261122000000_audit_initial },
];
