// The front end's lint gate (npm run lint, make test): typescript-eslint, the rules of hooks, jsx-a11y
// and the boundaries between the packages:
//   - a tab (mfe-*) imports no other tab: tabs meet only in the shell, through module federation
//     (the shell and the shared packages do not import a tab either);
//   - no package reaches into another's internals (`@portal/<pkg>/src/...`, or a relative path into
//     another package's folder): only what its package.json `exports` names;
//   - inside a tab, a feature (src/features/<name>) imports no other feature: what two features
//     share lives in the tab's src/features/shared (its own api, hooks and components; it imports
//     no feature), src/lib or src/components; a feature is put on a screen by the tab's screens
//     (src/screens), which its Root puts on its routes. The shell's own pages are features the
//     same way (shells/portal/src/features, put on its paths by its src/screens).
//   - no import cycle, inside a package or between packages.
// Formatting is Prettier's (.prettierrc); no rule here is about layout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = '**/*.{ts,tsx,js,jsx,mjs,cjs}';
// What import-x follows: it reads an imported file only if its extension is listed here (without
// .ts and .tsx, no TypeScript import was followed and no cycle through one was seen), resolved as
// TypeScript's Bundler resolution does: a package by its `exports`, through its workspace link to
// its own folder, and `./x.js` meaning ./x.ts.
const EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'];
const resolver = createNodeResolver({
  extensions: [...EXTENSIONS, '.json'],
  extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
});

// The tabs, and the features each one has today (a new feature folder is covered as it appears).
const WORKSPACES = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces;
const TABS = WORKSPACES.filter((w) => /^mfe-/.test(w));
// What a tab's features share (its api, hooks and components): any feature may import it.
const SHARED = 'shared';
const featuresOf = (tab) => {
  const dir = path.join(ROOT, tab, 'src', 'features');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
};
// A tab by its package name (mfe-orders, mfe-orders/src/...), by a relative path into its folder
// (../../mfe-orders/src/...), or by its federation name (mfe_orders/...): each pattern matches the
// name as a whole path segment.
const federationName = (tab) => JSON.parse(fs.readFileSync(path.join(ROOT, tab, 'package.json'), 'utf8')).portal?.federationName;
const tabPatterns = (tabs) =>
  tabs.map((tab) => ({
    group: [tab, federationName(tab)].filter(Boolean),
    message: `${tab} is a tab of its own: tabs do not import each other (they meet in the shell, through module federation); move what they share to @portal/runtime or @portal/kit.`,
  }));
const DEEP_IMPORT = {
  group: ['@portal/*/src', '@portal/*/src/**'],
  message: "Another package's internals: import it through the package's public entry (the `exports` of its package.json).",
};
const restrictedImports = (patterns) => ['error', { patterns }];
// In a package with features (a tab, or the shell: SHELL), no feature imports another but `shared`,
// which imports none.
const SHELL = 'shells/portal';
const featureBoundaries = (pkg) => [
  'error',
  {
    zones: featuresOf(pkg).map((feature) => ({
      target: `./${pkg}/src/features/${feature}`,
      from: `./${pkg}/src/features`,
      except: feature === SHARED ? [`./${feature}`] : [`./${feature}`, `./${SHARED}`],
      message: `A feature imports no other feature: move what ${feature} shares with it to ${pkg}/src/features/${SHARED}, src/lib or src/components.`,
    })),
    basePath: ROOT,
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'public/',
      'target/',
      'data/',
      '.cache/',
      '.tmp/',
      'services/',
      'deploy/',
      'docs/',
      // Generated from the gateway's OpenAPI document (npm run gen:api).
      'shells/runtime/src/api/schema.d.ts',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: [SOURCE],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    // The workspace's own packages (@portal/*) are followed like the package's own files: a cycle
    // through another package is a cycle too.
    settings: { 'import-x/extensions': EXTENSIONS, 'import-x/resolver-next': [resolver], 'import-x/internal-regex': '^@portal/' },
    rules: {
      // `_`-named: left unused on purpose (a rest sibling taken out, a parameter kept for its position).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-imports': restrictedImports([DEEP_IMPORT, ...tabPatterns(TABS)]),
      // No import cycle, within a package or across packages (third-party code is not followed);
      // an import of types only is no cycle (it leaves nothing at run time).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // In the workspace packages, a relative path into another package's folder is a deep import too.
  // (e2e/, scripts/ and tools/ drive the whole repository: they are not its packages.)
  {
    files: WORKSPACES.map((w) => `${w}/${SOURCE}`),
    rules: { 'import-x/no-relative-packages': 'error' },
  },
  // CommonJS files (webpack and jest configs): require() is how they import.
  {
    files: ['**/*.cjs', '**/webpack.*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // React: the rules of hooks and accessible JSX.
  {
    files: ['**/*.{ts,tsx,jsx}'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['**/*.{ts,tsx,jsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // One set of date formats (issue 24): the tabs and the shell show a date only through the kit's
  // named styles (@portal/kit/dates) and numbers through @portal/kit/format, never an ad-hoc
  // toLocale*String or Intl.DateTimeFormat. (The runtime, below the kit, and tests are exempt.)
  {
    files: [...TABS.map((tab) => `${tab}/src/**/*.{ts,tsx}`), 'shells/portal/src/**/*.{ts,tsx}'],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['toLocaleDateString', 'toLocaleTimeString', 'toLocaleString'].map((property) => ({
          property,
          message: 'Format dates with @portal/kit/dates (its named styles) and numbers with @portal/kit/format.',
        })),
        {
          object: 'Intl',
          property: 'DateTimeFormat',
          message: 'Format dates with @portal/kit/dates: one set of named styles per language.',
        },
      ],
    },
  },
  // Each tab: no other tab; inside it, no feature imports another feature (but any may import the
  // tab's features/shared, which imports none).
  ...TABS.map((tab) => ({
    files: [`${tab}/${SOURCE}`],
    rules: {
      'no-restricted-imports': restrictedImports([DEEP_IMPORT, ...tabPatterns(TABS.filter((t) => t !== tab))]),
      'import-x/no-restricted-paths': featureBoundaries(tab),
    },
  })),
  // The shell: no feature imports another either.
  {
    files: [`${SHELL}/${SOURCE}`],
    rules: { 'import-x/no-restricted-paths': featureBoundaries(SHELL) },
  },
);
