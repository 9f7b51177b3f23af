import fc from 'fast-check';
import { referenceCycle, referencedNames, substitute, type SubstitutionInput } from './substitution.js';

const text = (name: string, value: string, setId = 1): [string, SubstitutionInput] => [
  name.toLowerCase(),
  { name, text: value, sensitive: false, scanned: true, setId },
];
const secret = (name: string, value: string, setId = 1): [string, SubstitutionInput] => [
  name.toLowerCase(),
  { name, text: value, sensitive: true, scanned: true, setId },
];
const textsOf = (winners: [string, SubstitutionInput][]) =>
  Object.fromEntries([...substitute(new Map(winners))].map(([key, value]) => [key, value.text]));

describe('spec 4.1 "Substitution"', () => {
  it('replaces @[Name] with the winning value of the variable it names', () => {
    expect(textsOf([text('Host', 'db.local'), text('Url', 'postgres://@[Host]:5432')])).toMatchObject({
      url: 'postgres://db.local:5432',
    });
  });

  it('rule 1: names are matched without regard to case', () => {
    expect(textsOf([text('Host', 'h'), text('Url', '@[HOST]/@[host]')]).url).toBe('h/h');
  });

  it('rule 2: references chain, each variable resolved once', () => {
    expect(textsOf([text('A', 'a@[B]'), text('B', 'b@[C]'), text('C', 'c')])).toEqual({
      a: 'abc',
      b: 'bc',
      c: 'c',
    });
  });

  it('rule 3: a name that cannot be found stays as literal text', () => {
    expect(textsOf([text('Url', 'x@[Missing]y')]).url).toBe('x@[Missing]y');
  });

  it("rule 4: a sensitive value's own text is never scanned, but it can be referred to", () => {
    const result = substitute(
      new Map([secret('Password', 'p@[Host]'), text('Host', 'h'), text('Dsn', 'u:@[Password]')]),
    );
    expect(result.get('password')!.text).toBe('p@[Host]');
    expect(result.get('dsn')!.text).toBe('u:p@[Host]');
  });

  it('rule 5: a value embedding a secret, directly or through a chain, is itself sensitive; rule 7: the real text is used', () => {
    const result = substitute(
      new Map([
        secret('Password', 's3cret', 7),
        text('Dsn', 'u:@[Password]', 2),
        text('Url', 'x/@[Dsn]', 3),
        text('Plain', 'p'),
      ]),
    );
    expect(result.get('dsn')).toEqual({
      text: 'u:s3cret',
      sensitive: true,
      secretSets: new Set([7]),
      composed: true,
    });
    expect(result.get('url')).toEqual({
      text: 'x/u:s3cret',
      sensitive: true,
      secretSets: new Set([7]),
      composed: true,
    });
    expect(result.get('plain')).toEqual({
      text: 'p',
      sensitive: false,
      secretSets: new Set(),
      composed: false,
    });
  });

  it('rule 6: at request time a reference that cannot be resolved (a cycle) stays literal', () => {
    const result = textsOf([text('A', 'a@[B]'), text('B', 'b@[A]')]);
    expect(result.a).toBe('ab@[A]');
  });

  it('a Number or Boolean has no tokens to replace', () => {
    expect(
      textsOf([
        ['n', { name: 'N', text: '3', sensitive: false, scanned: false, setId: 1 }],
        text('Url', ':@[N]'),
      ]).url,
    ).toBe(':3');
  });
});

describe('spec 4.1 Substitution rule 6: a reference cycle is found at save', () => {
  it('names the chain back to the variable, and finds none where there is none', () => {
    const references = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(referenceCycle('a', references, (key) => key.toUpperCase())).toEqual(['A', 'B', 'C', 'A']);
    expect(referenceCycle('d', references)).toBeUndefined();
    expect(referenceCycle('a', new Map([['a', new Set(['a'])]]))).toEqual(['a', 'a']);
  });

  it('reads the names a text refers to', () => {
    expect(referencedNames('x @[One] y @[two] @[]')).toEqual(['one', 'two', '']);
  });
});

/** A straightforward reference: expand each value on its own, with the chain of names being expanded. */
function expand(
  winners: Map<string, SubstitutionInput>,
  key: string,
  chain: string[],
  memo: Map<string, { text: string; secret: boolean }>,
): { text: string; secret: boolean } | undefined {
  if (memo.has(key)) return memo.get(key);
  const winner = winners.get(key);
  if (!winner || chain.includes(key)) return undefined;
  if (winner.sensitive || !winner.scanned) {
    memo.set(key, { text: winner.text, secret: winner.sensitive });
    return memo.get(key);
  }
  let secret = false;
  let out = '';
  let rest = winner.text;
  for (let match = /@\[([^\]]*)\]/.exec(rest); match; match = /@\[([^\]]*)\]/.exec(rest)) {
    out += rest.slice(0, match.index);
    const target = expand(winners, match[1]!.toLowerCase(), [...chain, key], memo);
    out += target ? target.text : match[0];
    secret ||= target?.secret ?? false;
    rest = rest.slice(match.index + match[0].length);
  }
  memo.set(key, { text: out + rest, secret });
  return memo.get(key);
}

describe('spec 4.1 "Substitution" (properties): chains, cycles and secrecy, against a reference', () => {
  const names = ['A', 'b', 'C', 'd'];
  const winnersArbitrary = fc
    .array(
      fc.record({
        parts: fc.array(
          fc.oneof(
            fc.constantFrom('x', '-', '@[', ']'),
            fc.constantFrom(...names.map((n) => `@[${n}]`), '@[Nope]', '@[a]'),
          ),
          { maxLength: 4 },
        ),
        sensitive: fc.boolean(),
      }),
      { minLength: 4, maxLength: 4 },
    )
    .map(
      (rows) =>
        new Map(
          rows.map((row, index): [string, SubstitutionInput] => [
            names[index]!.toLowerCase(),
            {
              name: names[index]!,
              text: row.parts.join(''),
              sensitive: row.sensitive,
              scanned: true,
              setId: index,
            },
          ]),
        ),
    );

  it('gives each winner the text the reference expansion gives (chains, cycles left literal) and its secrecy (carried through chains)', () => {
    fc.assert(
      fc.property(winnersArbitrary, (winners) => {
        const result = substitute(winners);
        const memo = new Map<string, { text: string; secret: boolean }>();
        for (const key of winners.keys()) {
          const expected = expand(winners, key, [], memo)!;
          expect({ text: result.get(key)!.text, sensitive: result.get(key)!.sensitive }).toEqual({
            text: expected.text,
            sensitive: expected.secret,
          });
        }
      }),
    );
  });
});
