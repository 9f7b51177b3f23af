import { Migration20261122010000_account_initial } from './Migration20261122010000_account_initial.js';

/** Every migration of the account schema, oldest first. Add new ones at the end; never edit an applied one. */
export const ACCOUNT_MIGRATIONS = [
  { name: 'Migration20261122010000_account_initial', class: Migration20261122010000_account_initial },
];
