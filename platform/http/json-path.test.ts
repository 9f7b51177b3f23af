import { jsonPath } from './json-path.js';

describe('CONTRACT 7: a 400 names where the bad part is, as a JSON path', () => {
  it('writes plain keys with dots, indexes in brackets and other keys quoted', () => {
    expect(jsonPath('body', ['values', 2, 'value'])).toBe('body.values[2].value');
    expect(jsonPath('body', ['librarySets', 'Web API', 'variables', 'Db.Url', 0])).toBe(
      'body.librarySets["Web API"].variables["Db.Url"][0]',
    );
    expect(jsonPath('query', [])).toBe('query');
  });
});
