import { JSONObjectResolver } from 'graphql-scalars';

/**
 * A JSON object as one GraphQL value: for documents whose keys are names chosen by their writer
 * (a library file maps set names to sets), which no GraphQL object type can declare.
 */
export const JSONObject = JSONObjectResolver;
