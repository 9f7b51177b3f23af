import type { IncomingMessage } from 'node:http';
import type { Caller } from '../../platform/auth/caller.js';
import { PreparedResponse } from '../../platform/http/prepared-response.js';
import { requestHeader } from '../../platform/http/request-header.js';
import { defineRoute, type HeaderDoc, type Route } from '../../platform/http/route.js';
import {
  flatValuesView,
  previewQuery,
  previewView,
  variableValuesQuery,
  type VariableValuesQuery,
} from '../../subgraphs/library/resolution/resolution.schemas.js';
import type {
  ResolutionService,
  ValuesAnswer,
} from '../../subgraphs/library/resolution/resolution.service.js';

const tag = 'Variable values';

const COMMON =
  'Needs VariableRead for every set reached, ancestors included (a set outside a restricted scope is 403; a set that does not exist, or of another organization, makes the whole request 404; no set is 400). Costs CreditCosts:VariablePreviewCost per call: 429 with a plain-text body when the organization cannot afford it. The answer carries an ETag: sent back in If-None-Match while the answer is the same, it is 304 with no body, and not charged.';

/** An answer as sent: its bytes made once, with their ETag; or 304 when the caller's copy is current. */
function sent(result: ValuesAnswer): PreparedResponse {
  if (result.current) return new PreparedResponse(304, { etag: result.etag });
  return new PreparedResponse(
    200,
    { 'content-type': 'application/json; charset=utf-8', etag: result.answer.etag },
    result.answer.body,
  );
}

const CONDITIONAL_REQUEST: HeaderDoc[] = [
  {
    name: 'If-None-Match',
    description:
      'An ETag of an earlier answer (or a list of them, or *): 304 with no body, not charged, while it is current.',
  },
];
const CONDITIONAL_RESPONSE: HeaderDoc[] = [
  { name: 'ETag', description: "The answer's tag, to send back in If-None-Match." },
];

/** GET /variablevalues and its preview (spec 4.1 "Variable values (consumption)"). */
export function resolutionRoutes(resolution: ResolutionService): Route[] {
  const read = async (
    caller: Caller | undefined,
    request: IncomingMessage,
    query: VariableValuesQuery,
    shape: { preview: boolean; substitute: boolean },
  ) =>
    sent(
      await resolution.read(caller, {
        sets: query.set,
        tags: query.tag,
        ...shape,
        ifNoneMatch: requestHeader(request, 'if-none-match'),
      }),
    );
  return [
    defineRoute({
      method: 'get',
      path: '/variablevalues',
      operationId: 'getVariableValues',
      summary: 'The value of each variable for the sets and tags',
      description: `${COMMON} Items map each variable name to its value as text, references (@[Name]) replaced; a secret the caller may not read is its hint.`,
      tag,
      auth: 'required',
      direct: true,
      query: variableValuesQuery,
      response: flatValuesView,
      requestHeaders: CONDITIONAL_REQUEST,
      responseHeaders: CONDITIONAL_RESPONSE,
      errors: [304, 403, 404, 429],
      handle: ({ caller, query, request }) =>
        read(caller, request, query, { preview: false, substitute: true }),
    }),
    defineRoute({
      method: 'get',
      path: '/variablevalues/preview',
      operationId: 'previewVariableValues',
      summary: 'The winning value of each variable for the sets and tags',
      description: `${COMMON} Items map each variable name to its winning value with its id and tags; substitute=false leaves references as stored.`,
      tag,
      auth: 'required',
      direct: true,
      query: previewQuery,
      response: previewView,
      requestHeaders: CONDITIONAL_REQUEST,
      responseHeaders: CONDITIONAL_RESPONSE,
      errors: [304, 403, 404, 429],
      handle: ({ caller, query, request }) =>
        read(caller, request, query, { preview: true, substitute: query.substitute }),
    }),
  ];
}
