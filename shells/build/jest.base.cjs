// Shared jest settings: swc transform, jsdom, cache inside the repo's ignored .cache/.
const path = require('node:path');
const repoRoot = path.resolve(__dirname, '..', '..');

module.exports = function jestConfig(dir) {
  return {
    rootDir: dir,
    testEnvironment: 'jsdom',
    cacheDirectory: path.join(repoRoot, '.cache', 'jest'),
    roots: ['<rootDir>/src'],
    transform: {
      '^.+\\.[jt]sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2020',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    setupFilesAfterEnv: [path.join(__dirname, 'src', 'jest-setup.ts')],
    testMatch: ['**/*.test.ts', '**/*.test.tsx'],
    moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  };
};
