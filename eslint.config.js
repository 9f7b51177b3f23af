import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  ...domainBoundaries(),
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

/**
 * A domain never imports another domain's code (ARCHITECTURE "Layout"): it asks the other service
 * over HTTP or the queue, through a typed client in platform/. Each domain, and each REST facade
 * over it, may import platform/ and itself only; the launcher, the gateway's composition and the
 * tests put them together.
 */
function domainBoundaries() {
  const domains = {
    account: ['subgraphs/account', 'rest-facade/account'],
    audit: ['subgraphs/audit', 'rest-facade/audit'],
    identity: ['identity', 'rest-facade/identity'],
    library: ['subgraphs/library', 'rest-facade/library'],
  };
  return Object.entries(domains).map(([name, folders]) => {
    const others = Object.entries(domains).filter(([other]) => other !== name);
    return {
      files: folders.map((folder) => `${folder}/**/*.ts`),
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              // A path through a folder named after another domain (no domain has a folder named so).
              ...others.map(([other]) => ({
                regex: `(^|/)${other}/`,
                message: `The ${name} domain does not import the ${other} domain's code: ask its service through a client in platform/.`,
              })),
              {
                regex: '(^|/)(launcher|gateway|test)/',
                message: 'A domain does not import the composition root, the gateway or tests.',
              },
            ],
          },
        ],
      },
    };
  });
}
