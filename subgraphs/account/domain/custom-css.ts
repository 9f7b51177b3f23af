import { generate, lexer, List, parse, tokenize, tokenTypes } from 'css-tree';
import type {
  Atrule,
  Block,
  CssLocation,
  CssNode,
  Declaration,
  MediaQuery,
  Rule,
  Selector,
  SelectorList,
  Value,
} from 'css-tree';

/*
 * Threat model. An organization administrator writes this CSS; the login application puts it in a
 * <style> element of the organization's sign-in page, in front of every user who signs in. The
 * filter has to stop the text from (1) leaving the <style> element and running script, (2) making
 * the browser fetch anything (tracking, exfiltration of form contents via attribute selectors,
 * legacy script vectors such as expression() and -moz-binding), and (3) turning the page into a
 * phishing overlay (positioned layers over the real form, injected text). What is left is what
 * branding needs: colours, gradients, fonts already on the device, spacing, borders, sizes and
 * simple flex layout.
 *
 * Everything is allow-listed on the css-tree syntax tree: a node kind, name or unit not listed
 * below is dropped together with the smallest enclosing declaration, selector or rule.
 */

/**
 * Properties a sign-in page may be branded with. Left out on purpose: position, top/right/
 * bottom/left/inset, z-index, transform, float (overlays and moving things over the real form),
 * content and quotes (injected text), filter, mask, clip-path, border-image, list-style (they take
 * images or url()), cursor images, animation and transition, behavior, -moz-binding, all custom
 * properties and every vendor-prefixed property.
 */
const ALLOWED_PROPERTIES: ReadonlySet<string> = new Set([
  // Colours and backgrounds. Backgrounds can only be colours or gradients because url() and
  // image() are not allowed functions.
  'color',
  'opacity',
  'background',
  'background-color',
  'background-image',
  'background-position',
  'background-size',
  'background-repeat',
  'background-clip',
  'background-origin',
  // Fonts: only families already on the device, because @font-face is dropped.
  'font',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant',
  'line-height',
  'letter-spacing',
  'word-spacing',
  // Text.
  'text-align',
  'text-decoration',
  'text-decoration-line',
  'text-decoration-color',
  'text-decoration-style',
  'text-decoration-thickness',
  'text-underline-offset',
  'text-transform',
  'text-shadow',
  'text-indent',
  'white-space',
  'vertical-align',
  // Spacing.
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  // Borders, outlines, corners, shadows.
  'border',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-width',
  'border-style',
  'border-color',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'border-top-style',
  'border-right-style',
  'border-bottom-style',
  'border-left-style',
  'border-top-color',
  'border-right-color',
  'border-bottom-color',
  'border-left-color',
  'border-radius',
  'border-top-left-radius',
  'border-top-right-radius',
  'border-bottom-right-radius',
  'border-bottom-left-radius',
  'outline',
  'outline-color',
  'outline-style',
  'outline-width',
  'outline-offset',
  'box-shadow',
  // Sizing.
  'width',
  'height',
  'min-width',
  'max-width',
  'min-height',
  'max-height',
  'box-sizing',
  // Display and flex basics.
  'display',
  'flex',
  'flex-direction',
  'flex-wrap',
  'flex-flow',
  'flex-grow',
  'flex-shrink',
  'flex-basis',
  'justify-content',
  'align-items',
  'align-self',
  'align-content',
  'gap',
  'row-gap',
  'column-gap',
  // Keywords only (pointer, default...): cursor images need url(), which is not allowed.
  'cursor',
]);

/**
 * Functions a value may call. Colours, gradients and arithmetic only: no url(), image(),
 * image-set(), element(), cross-fade() (resources), no attr(), env(), var() (values the filter
 * cannot see), no expression() (script in old IE).
 */
const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'linear-gradient',
  'radial-gradient',
  'repeating-linear-gradient',
  'repeating-radial-gradient',
  'calc',
  'min',
  'max',
  'clamp',
]);

/** Lengths, plus angles for gradient directions. Resolution units only appear in @media. */
const ALLOWED_UNITS: ReadonlySet<string> = new Set([
  'px',
  'em',
  'rem',
  'ex',
  'ch',
  'pt',
  'vw',
  'vh',
  'vmin',
  'vmax',
  'svw',
  'svh',
  'lvw',
  'lvh',
  'dvw',
  'dvh',
  'deg',
  'rad',
  'grad',
  'turn',
]);

/** The only properties that may hold a quoted string: a font family name such as "Open Sans". */
const STRING_PROPERTIES: ReadonlySet<string> = new Set(['font', 'font-family']);

/** Pseudo-classes without arguments. `:not(...)` is handled on its own. */
const ALLOWED_PSEUDO_CLASSES: ReadonlySet<string> = new Set([
  'hover',
  'focus',
  'focus-visible',
  'focus-within',
  'active',
  'visited',
  'link',
  'first-child',
  'last-child',
  'only-child',
  'disabled',
  'enabled',
  'checked',
  'placeholder-shown',
]);

/** Styling the hint text of the sign-in inputs is common branding; other pseudo-elements are not needed. */
const ALLOWED_PSEUDO_ELEMENTS: ReadonlySet<string> = new Set(['placeholder']);

const ALLOWED_COMBINATORS: ReadonlySet<string> = new Set([' ', '>', '+', '~']);

const ALLOWED_MEDIA_TYPES: ReadonlySet<string> = new Set(['all', 'screen', 'print']);
const ALLOWED_MEDIA_MODIFIERS: ReadonlySet<string> = new Set(['not', 'only']);
const ALLOWED_MEDIA_FEATURES: ReadonlySet<string> = new Set([
  'width',
  'min-width',
  'max-width',
  'height',
  'min-height',
  'max-height',
  'aspect-ratio',
  'min-aspect-ratio',
  'max-aspect-ratio',
  'orientation',
  'resolution',
  'min-resolution',
  'max-resolution',
  'prefers-color-scheme',
  'prefers-reduced-motion',
  'prefers-contrast',
  'hover',
  'any-hover',
  'pointer',
  'any-pointer',
]);
const ALLOWED_MEDIA_KEYWORDS: ReadonlySet<string> = new Set([
  'landscape',
  'portrait',
  'light',
  'dark',
  'reduce',
  'no-preference',
  'more',
  'less',
  'custom',
  'none',
  'hover',
  'fine',
  'coarse',
]);
const ALLOWED_MEDIA_UNITS: ReadonlySet<string> = new Set(['px', 'em', 'rem', 'dpi', 'dpcm', 'dppx', 'x']);
const MEDIA_CONDITION_JOINERS: ReadonlySet<string> = new Set(['and', 'or', 'not']);

/*
 * The patterns below are applied to names the parser has already split out, never to the raw CSS.
 * ASCII only: it keeps the accepted text easy to reason about and brand class names are ASCII.
 */
/** A value keyword: no leading hyphen, so neither vendor keywords nor custom idents (`--x`). */
const KEYWORD = /^[a-z][a-z0-9-]*$/i;
/** A class or id name. */
const SELECTOR_NAME = /^-?[_a-z][_a-z0-9-]*$/i;
/** An element name; `*` is the universal selector. A namespace (`svg|a`) fails this. */
const ELEMENT_NAME = /^(?:\*|[a-z][a-z0-9-]*)$/i;
/** A font family name written as a string: letters, digits, spaces, hyphens and underscores. */
const FAMILY_NAME = /^[a-z0-9 _-]+$/i;
const HEX_COLOR = /^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * Bounds on nesting in what is kept, so the filter's own recursion, css-tree's generator and lexer
 * and the browser never see deep trees, whatever the input.
 */
const MAX_FUNCTION_DEPTH = 6;
const MAX_MEDIA_DEPTH = 3;
const MAX_CONDITION_DEPTH = 3;

/**
 * Input whose brackets nest deeper than this is refused before it reaches css-tree's parser, which
 * is recursive: thousands of nested `{`, `(` or `:not(` overflow the stack, and a stack overflow
 * is not something to recover from. Everything the filter keeps nests far less.
 */
const MAX_NESTING = 32;

/** For each token that opens a block, the token that closes it. */
const CLOSER_OF: ReadonlyMap<number, number> = new Map([
  [tokenTypes.Function, tokenTypes.RightParenthesis],
  [tokenTypes.LeftParenthesis, tokenTypes.RightParenthesis],
  [tokenTypes.LeftSquareBracket, tokenTypes.RightSquareBracket],
  [tokenTypes.LeftCurlyBracket, tokenTypes.RightCurlyBracket],
]);

/**
 * Text that must never reach the sign-in page: it would end the <style> element or open an HTML
 * comment around it. The filter cannot produce any of it by construction (no strings outside font
 * names, no escapes, no `<` token survives); this is a last check on the generated text.
 */
const FORBIDDEN_OUTPUT = ['<', '-->', '\\'];

/**
 * Filters an organization's custom CSS for the sign-in page against an allow-list (spec, sign-in
 * details: "The custom CSS is filtered against an allow-list of rules"). The CSS is parsed with
 * css-tree, tolerating errors, and rebuilt from what passes; the result is css-tree's compact output.
 *
 * What is kept:
 * - Style rules whose selectors are built from element, class and id selectors, the combinators
 *   descendant, `>`, `+` and `~`, the pseudo-classes :hover, :focus, :focus-visible,
 *   :focus-within, :active, :visited, :link, :first-child, :last-child, :only-child, :disabled,
 *   :enabled, :checked, :placeholder-shown, `:not(...)` of one compound of those (no nesting),
 *   and a final `::placeholder`. Attribute selectors, namespaces, `&` and every other pseudo are
 *   dropped. A rule keeps the selectors of its list that pass.
 * - Declarations of an allow-listed property (colours, colour and gradient backgrounds, fonts,
 *   text, spacing, borders, radii, shadows, sizes, display, flex and gap, opacity, cursor keywords;
 *   see ALLOWED_PROPERTIES) whose value is made of keywords, numbers, lengths and angles, hex
 *   colours, the functions rgb/rgba/hsl/hsla, the four linear/radial gradients, calc/min/max/clamp,
 *   and in font and font-family only, quoted family names of letters, digits, spaces, hyphens and
 *   underscores, and which css-tree's lexer accepts as a valid value of that property.
 *   `!important` is removed, so the login application can protect the elements that must stay
 *   visible.
 * - `@media` rules with a media query list of screen/print/all, not/only, and allow-listed
 *   features (ranges only with `>`, `>=` and `=`, since `<` may not appear in the output),
 *   holding rules filtered the same way, nested at most three deep.
 *
 * What is dropped: every other at-rule (@import, @font-face, @charset, @namespace, @supports,
 * @keyframes, @page, @layer...), nested style rules, custom properties, and any declaration,
 * selector or media query whose source text holds a backslash, since escapes are how `url(` and
 * `expression(` are smuggled past filters. Rules and @media rules left with nothing are dropped.
 *
 * Empty, blank or wholly unsafe input gives `''`, and so does input whose brackets nest more than
 * 32 deep (css-tree's parser is recursive). Filtering is idempotent. There is no length limit here:
 * the work grows with the input and the caller rejects input over 100 000 characters before
 * calling.
 *
 * @throws what css-tree throws on a fault of its own (it recovers from bad CSS by itself); the
 *   caller reports it rather than saving nothing in silence.
 */
export function filterCustomCss(css: string): string {
  if (nestsTooDeeply(css)) return '';
  resetParserTokenBuffer(css.length);
  // With onParseError set css-tree recovers from syntax errors itself, so a throw here is a fault
  // in the parser: it reaches the caller, which reports it, rather than silently keeping nothing.
  const stylesheet: CssNode = parse(css, {
    positions: true,
    parseAtrulePrelude: true,
    parseRulePrelude: true,
    parseValue: true,
    parseCustomProperty: false,
    // Errors are tolerated: css-tree leaves a Raw node where it could not parse, and Raw nodes
    // are never kept.
    onParseError: () => undefined,
  });
  if (stylesheet.type !== 'StyleSheet') return '';

  const kept: string[] = [];
  for (const node of stylesheet.children) {
    const filtered = filterBlockItem(node, css, 0);
    if (!filtered) continue;
    const text = generate(filtered);
    if (FORBIDDEN_OUTPUT.some((forbidden) => text.includes(forbidden))) continue;
    kept.push(text);
  }
  return kept.join('');
}

/**
 * css-tree's parser keeps one token buffer for its lifetime and reuses it for shorter input without
 * clearing it. While pairing brackets it reads the buffer's slot at the input's length (as the
 * sentinel above the outermost block), so a type left there by an earlier, longer stylesheet can
 * pair a stray `}` with nothing and leave a cycle in its bracket table: the next parse then loops
 * forever (css-tree 3.2.1; a bigger stylesheet saved first, then `(;)}`-like input, hangs the
 * service). Parsing exactly `length` one-character tokens first writes the end-of-input marker into
 * that slot. A comma list read as declarations is the cheapest such parse (about 7 ms per 100 000).
 */
function resetParserTokenBuffer(length: number): void {
  parse(','.repeat(length), {
    context: 'declarationList',
    parseValue: false,
    parseRulePrelude: false,
    parseAtrulePrelude: false,
  });
}

/**
 * Whether brackets nest deeper than MAX_NESTING, counted on css-tree's tokens (its tokenizer is a
 * loop, not recursive), so brackets inside strings and comments do not count.
 */
function nestsTooDeeply(css: string): boolean {
  // Closers that do not match the innermost open block are ignored, as CSS parsers do, so `(]`
  // cannot be used to hide nesting from this count.
  const expectedClosers: number[] = [];
  let tooDeep = false;
  tokenize(css, (type) => {
    const closer = CLOSER_OF.get(type);
    if (closer !== undefined) {
      expectedClosers.push(closer);
      if (expectedClosers.length > MAX_NESTING) tooDeep = true;
    } else if (type === expectedClosers[expectedClosers.length - 1]) {
      expectedClosers.pop();
    }
  });
  return tooDeep;
}

/** A rule or @media rule at the top level or inside @media, filtered; undefined to drop it. */
function filterBlockItem(node: CssNode, source: string, mediaDepth: number): Rule | Atrule | undefined {
  if (node.type === 'Rule') return filterRule(node, source);
  if (node.type === 'Atrule') return filterMedia(node, source, mediaDepth + 1);
  // CDO/CDC (`<!--`, `-->`), comments and Raw (unparsable text, e.g. `</style><script>`).
  return undefined;
}

function filterRule(rule: Rule, source: string): Rule | undefined {
  if (rule.prelude.type !== 'SelectorList') return undefined;
  const selectors = rule.prelude.children
    .toArray()
    .filter((selector) => selector.type === 'Selector' && isAllowedSelector(selector, source));
  if (selectors.length === 0) return undefined;
  const declarations = rule.block.children
    .toArray()
    .flatMap((item) => (item.type === 'Declaration' ? (filterDeclaration(item, source) ?? []) : []));
  if (declarations.length === 0) return undefined;
  const prelude: SelectorList = { type: 'SelectorList', children: new List<CssNode>().fromArray(selectors) };
  const block: Block = { type: 'Block', children: new List<CssNode>().fromArray(declarations) };
  return { type: 'Rule', prelude, block };
}

function filterMedia(atrule: Atrule, source: string, depth: number): Atrule | undefined {
  if (atrule.name.toLowerCase() !== 'media' || depth > MAX_MEDIA_DEPTH) return undefined;
  const { prelude, block } = atrule;
  if (!prelude || prelude.type !== 'AtrulePrelude' || !block) return undefined;
  if (holdsBackslash(prelude.loc, source)) return undefined;
  const queryList = prelude.children.first;
  if (prelude.children.size !== 1 || queryList?.type !== 'MediaQueryList') return undefined;
  const queries = queryList.children.toArray();
  if (queries.length === 0 || !queries.every(isAllowedMediaQuery)) return undefined;
  const items = block.children.toArray().flatMap((item) => filterBlockItem(item, source, depth) ?? []);
  if (items.length === 0) return undefined;
  return {
    type: 'Atrule',
    name: 'media',
    prelude,
    block: { type: 'Block', children: new List<CssNode>().fromArray(items) },
  };
}

function isAllowedMediaQuery(query: CssNode): boolean {
  if (query.type !== 'MediaQuery') return false;
  const { modifier, mediaType, condition }: MediaQuery = query;
  if (modifier !== null && !ALLOWED_MEDIA_MODIFIERS.has(modifier.toLowerCase())) return false;
  if (mediaType !== null && !ALLOWED_MEDIA_TYPES.has(mediaType.toLowerCase())) return false;
  if (mediaType === null && condition === null) return false;
  return condition === null || isAllowedMediaCondition(condition, 1);
}

function isAllowedMediaCondition(condition: CssNode, depth: number): boolean {
  if (condition.type !== 'Condition' || depth > MAX_CONDITION_DEPTH) return false;
  if (condition.children.isEmpty) return false;
  return condition.children.toArray().every((part) => {
    switch (part.type) {
      case 'Identifier':
        return MEDIA_CONDITION_JOINERS.has(part.name.toLowerCase());
      case 'Condition':
        return isAllowedMediaCondition(part, depth + 1);
      case 'Feature':
        return (
          ALLOWED_MEDIA_FEATURES.has(part.name.toLowerCase()) &&
          (part.value === null || isAllowedMediaValue(part.value))
        );
      case 'FeatureRange':
        // `<` and `<=` would put a `<` in the output, which must never hold one (see
        // FORBIDDEN_OUTPUT); `>`, `>=` and `=` can say the same thing.
        if ([part.leftComparison, part.rightComparison].some((comparison) => comparison?.includes('<'))) {
          return false;
        }
        return (
          isAllowedRangeOperand(part.left) &&
          isAllowedRangeOperand(part.middle) &&
          (part.right === null || isAllowedRangeOperand(part.right))
        );
      default:
        return false;
    }
  });
}

/** In `(400px <= width < 700px)` each side is a feature name or a plain value. */
function isAllowedRangeOperand(operand: CssNode): boolean {
  if (operand.type === 'Identifier') return ALLOWED_MEDIA_FEATURES.has(operand.name.toLowerCase());
  return isAllowedMediaValue(operand);
}

/** No functions in media queries: calc() there buys nothing for branding. */
function isAllowedMediaValue(value: CssNode): boolean {
  switch (value.type) {
    case 'Number':
      return true;
    case 'Dimension':
      return ALLOWED_MEDIA_UNITS.has(value.unit.toLowerCase());
    case 'Identifier':
      return ALLOWED_MEDIA_KEYWORDS.has(value.name.toLowerCase());
    case 'Ratio':
      return value.left.type === 'Number' && (value.right === null || value.right.type === 'Number');
    default:
      return false;
  }
}

function isAllowedSelector(selector: Selector, source: string): boolean {
  if (holdsBackslash(selector.loc, source)) return false;
  const parts = selector.children.toArray();
  if (parts.length === 0) return false;
  return parts.every((part, index) => {
    const previous = parts[index - 1];
    const isLast = index === parts.length - 1;
    switch (part.type) {
      case 'Combinator':
        // Between two compounds only: no leading `> a`, no trailing `a >`, no `a > > b`.
        return (
          ALLOWED_COMBINATORS.has(part.name) &&
          previous !== undefined &&
          previous.type !== 'Combinator' &&
          !isLast
        );
      case 'PseudoElementSelector':
        return ALLOWED_PSEUDO_ELEMENTS.has(part.name.toLowerCase()) && part.children === null && isLast;
      case 'PseudoClassSelector':
        if (part.name.toLowerCase() === 'not') return isAllowedNegation(part.children);
        return isAllowedSimpleSelector(part);
      default:
        return isAllowedSimpleSelector(part);
    }
  });
}

/** `:not(...)` of a list of compounds of simple selectors, without combinators or nested :not. */
function isAllowedNegation(argument: List<CssNode> | null): boolean {
  const list = argument?.first;
  if (!argument || argument.size !== 1 || list?.type !== 'SelectorList' || list.children.isEmpty)
    return false;
  return list.children
    .toArray()
    .every(
      (selector) =>
        selector.type === 'Selector' &&
        !selector.children.isEmpty &&
        selector.children.toArray().every(isAllowedSimpleSelector),
    );
}

function isAllowedSimpleSelector(part: CssNode): boolean {
  switch (part.type) {
    case 'TypeSelector':
      return ELEMENT_NAME.test(part.name);
    case 'ClassSelector':
    case 'IdSelector':
      return SELECTOR_NAME.test(part.name);
    case 'PseudoClassSelector':
      return ALLOWED_PSEUDO_CLASSES.has(part.name.toLowerCase()) && part.children === null;
    default:
      return false;
  }
}

function filterDeclaration(declaration: Declaration, source: string): Declaration | undefined {
  // An `!ie`-style hack flag means the browser would drop the declaration anyway.
  if (typeof declaration.important === 'string') return undefined;
  if (holdsBackslash(declaration.loc, source)) return undefined;
  const property = declaration.property.toLowerCase();
  if (!ALLOWED_PROPERTIES.has(property)) return undefined;
  const value = declaration.value;
  if (value.type !== 'Value' || value.children.isEmpty) return undefined;
  const allowStrings = STRING_PROPERTIES.has(property);
  if (!value.children.toArray().every((part) => isAllowedValuePart(part, allowStrings, 0))) return undefined;
  // The grammar check runs only on trees already made of allowed parts, so its own recursion is bounded.
  if (lexer.matchProperty(property, value).error) return undefined;
  const kept: Value = { type: 'Value', children: value.children };
  return { type: 'Declaration', important: false, property, value: kept };
}

function isAllowedValuePart(part: CssNode, allowStrings: boolean, depth: number): boolean {
  switch (part.type) {
    case 'Identifier':
      return KEYWORD.test(part.name);
    case 'Number':
    case 'Percentage':
      return true;
    case 'Dimension':
      return ALLOWED_UNITS.has(part.unit.toLowerCase());
    case 'Hash':
      return HEX_COLOR.test(part.value);
    case 'String':
      // css-tree hands over the decoded string, so this sees the characters the browser would.
      return allowStrings && FAMILY_NAME.test(part.value);
    case 'Operator':
      return [',', '/', '+', '-', '*'].includes(part.value.trim());
    case 'WhiteSpace':
      return true;
    case 'Function':
      return (
        depth < MAX_FUNCTION_DEPTH &&
        ALLOWED_FUNCTIONS.has(part.name.toLowerCase()) &&
        part.children.toArray().every((child) => isAllowedValuePart(child, false, depth + 1))
      );
    case 'Parentheses':
      // Grouping inside calc(): `calc((100% - 2rem) / 2)`.
      return (
        depth > 0 &&
        depth < MAX_FUNCTION_DEPTH &&
        part.children.toArray().every((child) => isAllowedValuePart(child, false, depth + 1))
      );
    default:
      // Url, Raw, Brackets, UnicodeRange, Comment and anything css-tree adds later.
      return false;
  }
}

/**
 * Whether the source text behind a node holds a backslash. Escapes are refused outright rather than
 * decoded and judged: css-tree keeps some escaped (identifiers) and decodes others (strings), and a
 * sign-in page has no need for them. Without a location the text cannot be checked, so it counts.
 */
function holdsBackslash(loc: CssLocation | undefined, source: string): boolean {
  if (!loc) return true;
  return source.slice(loc.start.offset, loc.end.offset).includes('\\');
}
