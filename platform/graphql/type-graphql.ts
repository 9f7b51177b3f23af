/**
 * type-graphql, with the decorator metadata polyfill it needs loaded first. Every module that
 * declares GraphQL types imports the decorators from here, so no entry point has to remember
 * `import 'reflect-metadata'` before the first decorated class is evaluated.
 */
import 'reflect-metadata';

export * from 'type-graphql';
