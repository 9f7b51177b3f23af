import { jest } from '@jest/globals';

/*
 * css-tree recovers from bad CSS by itself, so no stylesheet makes it throw; a throw is a fault in
 * the parser. To see what the filter does then, this file replaces css-tree's parse with one that
 * fails on a marker and otherwise parses as usual.
 */
const cssTree = await import('css-tree');
const FAULT = '/* make the parser fail */';
jest.unstable_mockModule('css-tree', () => ({
  ...cssTree,
  parse: (...args: Parameters<typeof cssTree.parse>) => {
    if (args[0].includes(FAULT)) throw new Error('parser fault');
    return cssTree.parse(...args);
  },
}));
const { filterCustomCss } = await import('./custom-css.js');

describe('decisions "Custom CSS": a fault of the CSS parser is not swallowed', () => {
  it('reaches the caller instead of turning the stylesheet into nothing', () => {
    expect(() => filterCustomCss(`.a { color: red } ${FAULT}`)).toThrow('parser fault');
  });

  it('while CSS that parses is still filtered as usual', () => {
    expect(filterCustomCss('.a { color: red }')).toBe('.a{color:red}');
  });
});
