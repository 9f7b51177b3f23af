import type { HttpClient, TestResponse } from './http-client.js';

/** One error of a GraphQL answer, with the extensions our subgraphs and Apollo set. */
export interface GraphQLError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; status?: number; rejectedPermissions?: string[] };
}

/** A GraphQL answer: data (null or absent when the request failed as a whole) and any errors. */
export interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: GraphQLError[];
}

/** Posts a query to the service's /graphql with the session token in x-svc-auth; the whole response. */
export function graphql<T = unknown>(
  client: HttpClient,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<TestResponse<GraphQLAnswer<T>>> {
  return client.post<GraphQLAnswer<T>>('/graphql', { token, body: { query, variables } });
}

/** The data of an answer that must carry no error; anything else fails with the response text. */
export async function graphqlData<T>(
  client: HttpClient,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await graphql<T>(client, token, query, variables);
  if (response.status !== 200 || response.body.errors || response.body.data == null) {
    throw new Error(`expected data, got ${response.status}: ${response.text}`);
  }
  return response.body.data;
}
