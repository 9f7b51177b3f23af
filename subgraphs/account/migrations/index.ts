import { Migration20261122010000_account_initial } from './Migration20261122010000_account_initial.js';
import { Migration20261123020000_api_key_hash_prefix } from './Migration20261123020000_api_key_hash_prefix.js';

/** Every migration of the account schema, oldest first. Add new ones at the end; never edit an applied one. */
export const ACCOUNT_MIGRATIONS = [
  { name: 'Migration20261122010000_account_initial', class: Migration20261122010000_account_initial },
  {
    name: 'Migration20261123020000_api_key_hash_prefix',
    class: Migration20261123020000_api_key_hash_prefix,
  },
];
