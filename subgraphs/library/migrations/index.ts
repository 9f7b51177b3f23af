import { Migration20261203000000_library_initial } from './Migration20261203000000_library_initial.js';
import { Migration20261204000000_library_revision } from './Migration20261204000000_library_revision.js';
import { Migration20261205000000_library_organization_indexes } from './Migration20261205000000_library_organization_indexes.js';
import { Migration20261206000000_library_set_slug } from './Migration20261206000000_library_set_slug.js';
import { Migration20261207000000_library_certificates } from './Migration20261207000000_library_certificates.js';
import { Migration20261208000000_library_sealed_values } from './Migration20261208000000_library_sealed_values.js';
import { Migration20261209000000_library_plain_secrets_index } from './Migration20261209000000_library_plain_secrets_index.js';

/** Every migration of the library schema, oldest first. Add new ones at the end; never edit an applied one. */
export const LIBRARY_MIGRATIONS = [
  { name: 'Migration20261203000000_library_initial', class: Migration20261203000000_library_initial },
  { name: 'Migration20261204000000_library_revision', class: Migration20261204000000_library_revision },
  {
    name: 'Migration20261205000000_library_organization_indexes',
    class: Migration20261205000000_library_organization_indexes,
  },
  { name: 'Migration20261206000000_library_set_slug', class: Migration20261206000000_library_set_slug },
  {
    name: 'Migration20261207000000_library_certificates',
    class: Migration20261207000000_library_certificates,
  },
  {
    name: 'Migration20261208000000_library_sealed_values',
    class: Migration20261208000000_library_sealed_values,
  },
  {
    name: 'Migration20261209000000_library_plain_secrets_index',
    class: Migration20261209000000_library_plain_secrets_index,
  },
];
