import { z } from 'zod';
import { BadRequestError } from '../errors/domain-errors.js';
import { parseInput } from './validation.js';

function refusal(schema: z.ZodType, value: unknown, location: string): BadRequestError {
  try {
    parseInput(schema, value, location);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  }
  throw new Error('parseInput accepted the value');
}

describe('spec 7 / CONTRACT 7 / issue 2 errors: a 400 from validation names each bad field by where it came from', () => {
  it('names a query parameter query.<name>', () => {
    const error = refusal(z.object({ take: z.number() }), { take: 'x' }, 'query');
    expect(error.errors.map((e) => e.field)).toEqual(['query.take']);
  });

  it('names an array item body[<index>].<name>', () => {
    const schema = z.array(z.object({ operatorType: z.enum(['eq', 'contains']) }));
    const error = refusal(schema, [{ operatorType: 'eq' }, { operatorType: 'gt' }], 'body');
    expect(error.errors.map((e) => e.field)).toEqual(['body[1].operatorType']);
  });

  it('names nested objects and arrays body.providers[0].clientId', () => {
    const schema = z.object({ providers: z.array(z.object({ clientId: z.string() })) });
    const error = refusal(schema, { providers: [{ clientId: 5 }] }, 'body');
    expect(error.errors.map((e) => e.field)).toEqual(['body.providers[0].clientId']);
  });

  it('names the whole body "body" when its shape is wrong (a JSON null)', () => {
    const error = refusal(z.array(z.string()).default([]), null, 'body');
    expect(error.errors.map((e) => e.field)).toEqual(['body']);
  });

  it('names GraphQL arguments args.<name>', () => {
    const error = refusal(z.object({ sortField: z.enum(['Id']) }), { sortField: 'Nope' }, 'args');
    expect(error.errors[0]!.field).toBe('args.sortField');
  });

  it('names every bad field, each with its reason, and repeats them in the message', () => {
    const schema = z.object({ take: z.number().max(10, 'must be at most 10'), skip: z.number() });
    const error = refusal(schema, { take: 11, skip: 'x' }, 'query');
    expect(error.errors.map((e) => e.field)).toEqual(['query.take', 'query.skip']);
    expect(error.errors[0]).toEqual({ field: 'query.take', message: 'must be at most 10' });
    expect(error.message).toContain('query.take: must be at most 10');
    expect(error.extensions).toEqual({ errors: error.errors });
  });

  it('answers the parsed value when it is valid', () => {
    expect(parseInput(z.object({ take: z.number().default(10) }), {}, 'query')).toEqual({ take: 10 });
  });
});
