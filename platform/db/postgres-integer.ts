/** The largest value a PostgreSQL `integer` column holds (2^31 - 1): our ids and versions are `int`s. */
export const MAX_POSTGRES_INTEGER = 2_147_483_647;
