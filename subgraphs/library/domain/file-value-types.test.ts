import { inferredType } from './file-value-types.js';

describe('spec 4.1 "Import": a variable\'s type is what its values are when the file names none (decisions "Import and export files")', () => {
  it.each([
    [[true, false], 'Boolean'],
    [[1, 2.5], 'Number'],
    [['a', 'b'], 'String'],
    [['a', 'line\nbreak'], 'Multiline'],
    [[], 'String'],
    [['1', 1], undefined],
    [[true, 'true'], undefined],
  ])('%j → %s', (values, type) => {
    expect(inferredType(values)).toBe(type);
  });
});
