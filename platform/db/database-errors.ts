import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, type DomainError } from '../errors/domain-errors.js';

/** What a service says when a constraint it relies on is violated. */
export interface ConstraintMessages {
  unique?: string | ((constraint: string | undefined) => DomainError);
  foreignKey?: string | ((constraint: string | undefined) => DomainError);
}

/**
 * Runs a database operation and turns the driver's constraint exceptions into domain
 * errors, by class, never by message text. Anything else passes through untouched, to be
 * reported as a 500 by the adapter.
 */
export async function withConstraintErrors<T>(
  work: () => Promise<T>,
  messages: ConstraintMessages,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translate(error, messages);
  }
}

function translate(error: unknown, messages: ConstraintMessages): unknown {
  const constraint = constraintName(error);
  if (error instanceof UniqueConstraintViolationException && messages.unique) {
    return typeof messages.unique === 'string'
      ? new ConflictError(messages.unique)
      : messages.unique(constraint);
  }
  if (error instanceof ForeignKeyConstraintViolationException && messages.foreignKey) {
    return typeof messages.foreignKey === 'string'
      ? new ConflictError(messages.foreignKey)
      : messages.foreignKey(constraint);
  }
  return error;
}

function constraintName(error: unknown): string | undefined {
  const candidate = (error as { constraint?: unknown } | null)?.constraint;
  return typeof candidate === 'string' ? candidate : undefined;
}
