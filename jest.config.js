/**
 * ESM + TypeScript under jest: ts-jest transpiles each file on its own (isolatedModules),
 * so type errors are caught by `npm run typecheck`, not here.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  // Test files wait on PostgreSQL, NATS and HTTP more than they compute: one per core, not one fewer.
  maxWorkers: '100%',
};
