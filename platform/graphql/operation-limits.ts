import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isListType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { MAX_TAKE } from '../http/query-schemas.js';

/**
 * What one GraphQL operation may ask for (decisions "Operation limits"): how deeply fields
 * nest, how many aliases it uses, and its estimated cost, roughly the number of values it
 * could return. Introspection is left out of all three: it is bounded by the schema.
 */
export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
}

export const OPERATION_LIMITS: OperationLimits = { maxDepth: 10, maxAliases: 30, maxCost: 100_000 };

/** How many items a list without paging is assumed to hold (a user's groups, a group's members). */
export const ASSUMED_LIST_LENGTH = 10;

/** The most fields (with fragments expanded) one operation is walked through before it is refused. */
const MAX_FIELDS = 10_000;

/**
 * The cost of a field: 1, plus what its selection costs, times the items it can return. A paged
 * field (one with `take`) returns at most `take` items, or MAX_TAKE when `take` is left out (the
 * account lists then return everything); its page's `items` are counted there, once. Any other
 * list is assumed to hold ASSUMED_LIST_LENGTH.
 */
export const estimateFieldCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (field.name.startsWith('__') || type.name.startsWith('__')) return 0;
  if (field.args.some((argument) => argument.name === 'take')) {
    const take = typeof args.take === 'number' ? Math.min(Math.max(args.take, 0), MAX_TAKE) : MAX_TAKE;
    return 1 + take * childComplexity;
  }
  const isPageItems = field.name === 'items' && type.name.endsWith('Page');
  if (isListType(getNullableType(field.type)) && !isPageItems) {
    return 1 + ASSUMED_LIST_LENGTH * childComplexity;
  }
  return 1 + childComplexity;
};

/** Why the operation may not run, or undefined when it may. */
export function operationLimitProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
  limits: OperationLimits = OPERATION_LIMITS,
): string | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const shape = measureShape(operation.selectionSet, fragmentsOf(document));
  if (shape.fields > MAX_FIELDS) {
    return `The operation selects more than ${MAX_FIELDS} fields once its fragments are expanded.`;
  }
  if (shape.depth > limits.maxDepth) {
    return `The operation nests fields ${shape.depth} deep; at most ${limits.maxDepth} are allowed.`;
  }
  if (shape.aliases > limits.maxAliases) {
    return `The operation uses ${shape.aliases} aliases; at most ${limits.maxAliases} are allowed.`;
  }
  // Variables that do not coerce are refused when the operation runs (BAD_USER_INPUT), as without limits.
  if (getVariableValues(schema, operation.variableDefinitions ?? [], variables).errors) return undefined;
  const cost = getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [estimateFieldCost],
    maxQueryNodes: MAX_FIELDS,
  });
  if (cost > limits.maxCost) {
    return `The operation's estimated cost is ${cost}; at most ${limits.maxCost} is allowed. Ask for fewer items (take) or fewer fields, or split it into several requests.`;
  }
  return undefined;
}

/**
 * Refuses an operation beyond the limits before it runs, with a BAD_REQUEST error that says
 * which limit and by how much.
 */
export function operationLimitsPlugin(
  limits: OperationLimits = OPERATION_LIMITS,
): ApolloServerPlugin<BaseContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ document, operationName, request, schema }) => {
          const problem = operationLimitProblem(
            schema,
            document,
            operationName ?? undefined,
            request.variables ?? {},
            limits,
          );
          if (problem) {
            throw new GraphQLError(problem, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
          }
          return Promise.resolve();
        },
      }),
  };
}

interface Shape {
  depth: number;
  aliases: number;
  fields: number;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * Depth, aliases and fields of a selection with its fragments expanded, skipping introspection.
 * Stops counting once past MAX_FIELDS, so a document of fragments spread into each other many
 * times over cannot make the walk itself costly. (graphql-js has already refused fragment cycles.)
 */
function measureShape(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): Shape {
  const shape: Shape = { depth: 0, aliases: 0, fields: 0 };
  const walk = (selections: SelectionSetNode, depth: number): void => {
    for (const selection of selections.selections) {
      if (shape.fields > MAX_FIELDS) return;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        shape.fields++;
        if (selection.alias) shape.aliases++;
        shape.depth = Math.max(shape.depth, depth);
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet, depth);
      }
    }
  };
  walk(selectionSet, 1);
  return shape;
}
