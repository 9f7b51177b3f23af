import { z } from 'zod';
import { booleanInput, integerInput, listQuery } from './query-schemas.js';

describe('CONTRACT 6 / issue 2 request validation: integers in a query or path are decimal digits only', () => {
  const take = integerInput(0, 1000);

  it.each([
    ['0', 0],
    ['10', 10],
    ['1000', 1000],
    ['007', 7],
  ])('reads %j as %d', (text, expected) => {
    expect(take.parse(text)).toBe(expected);
  });

  it('takes a number from a typed caller (a GraphQL resolver)', () => {
    expect(take.parse(25)).toBe(25);
  });

  it.each(['0x10', '1e2', '1.0', ' 1', '1 ', '+1', '', 'abc', '١٢'])(
    'refuses %j as "must be an integer"',
    (text) => {
      const result = take.safeParse(text);
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('must be an integer');
    },
  );

  it.each([true, 1.5, null, [1], Number.NaN])('refuses %j', (value) => {
    expect(take.safeParse(value).success).toBe(false);
  });

  it('judges a minus by the bounds: -1 is below 0 where negatives mean nothing', () => {
    expect(take.safeParse('-1').error!.issues[0]!.message).toBe('must be at least 0');
    expect(integerInput(-5, 5).parse('-5')).toBe(-5);
  });

  it('keeps to the bounds', () => {
    expect(take.safeParse('1001').error!.issues[0]!.message).toBe('must be at most 1000');
  });

  it('documents itself as an integer with its bounds in the OpenAPI input form', () => {
    expect(z.toJSONSchema(take, { io: 'input', unrepresentable: 'any' })).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 1000,
    });
  });
});

describe('CONTRACT 6 / issue 2 request validation: booleans and the default list paging', () => {
  it('reads true and false in any case, and nothing else', () => {
    expect(booleanInput.parse('TRUE')).toBe(true);
    expect(booleanInput.parse('false')).toBe(false);
    expect(booleanInput.safeParse('1').success).toBe(false);
    expect(booleanInput.safeParse('yes').success).toBe(false);
  });

  it('CONTRACT 6: lists answer everything unless take is given; skip defaults to 0', () => {
    expect(listQuery.parse({})).toEqual({ skip: 0 });
    expect(listQuery.parse({ take: '5', skip: '2' })).toEqual({ take: 5, skip: 2 });
  });
});
