// Shared build configuration for the shell and every micro-frontend.
// One place decides what is shared as a module-federation singleton, so host and
// remotes cannot drift apart.
const path = require('node:path');
const fs = require('node:fs');

const SHARED_FROM = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  '@portal/runtime': '@portal/runtime',
  // A separate entry of the runtime (countries reference data), used only by My Details.
  '@portal/runtime/countries': '@portal/runtime',
  '@tanstack/react-query': '@tanstack/react-query',
  i18next: 'i18next',
  'react-i18next': 'react-i18next',
};

/** Singleton shared config; requiredVersion comes from the package's own dependencies. */
function sharedSingletons(pkg) {
  const deps = { ...(pkg.peerDependencies || {}), ...(pkg.dependencies || {}) };
  const shared = {};
  for (const [mod, dep] of Object.entries(SHARED_FROM)) {
    if (!deps[dep]) continue;
    shared[mod] = { singleton: true, requiredVersion: deps[dep] };
  }
  return shared;
}

/** The shared config with `modules` consumed only: no fallback of the remote's own (import: false). */
function fromShellOnly(shared, modules) {
  const out = { ...shared };
  for (const mod of modules) {
    if (!out[mod]) throw new Error(`fromShell: ${mod} is not a shared module of this package`);
    out[mod] = { ...out[mod], import: false };
  }
  return out;
}

/**
 * '[name].[contenthash:8].js', except while the federation runtime module asks for
 * the entry filename before hashes exist (it only needs the directory depth).
 */
function hashedFilename(pathData) {
  const chunk = pathData && pathData.chunk;
  const ready = chunk && chunk.contentHash && chunk.contentHash.javascript;
  return ready ? '[name].[contenthash:8].js' : '[name].js';
}

function optimization() {
  const MinimizerPlugin = require('minimizer-webpack-plugin');
  return {
    moduleIds: 'deterministic',
    chunkIds: 'deterministic',
    minimizer: [
      new MinimizerPlugin({
        extractComments: false,
        terserOptions: { compress: { passes: 2 }, format: { comments: false } },
      }),
    ],
  };
}

/**
 * TanStack Query add-ons (e.g. the persist-client packages) import '@tanstack/query-core' directly;
 * point them at the shared @tanstack/react-query, which re-exports it, so a remote does not bundle
 * a second query core next to the shared one.
 */
function queryCoreViaReactQuery() {
  return {
    test: /[\\/]node_modules[\\/]@tanstack[\\/](?!react-query[\\/]|query-core[\\/])[^\\/]+[\\/]/,
    resolve: { alias: { '@tanstack/query-core$': path.join(__dirname, 'src', 'query-core-shared.ts') } },
  };
}

function swcRule() {
  return {
    test: /\.[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2020',
        },
      },
    },
  };
}

/**
 * The shell's stylesheet: shells/portal/src/styles/*.css, one file per area, joined in the order
 * of their names (the number in front of each is its place in the cascade).
 */
function portalCss() {
  const dir = path.join(__dirname, '..', 'portal', 'src', 'styles');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.css'))
    .sort();
  return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

/** index.html for running one MFE without the shell (styles from the shell's CSS). */
function standalonePage(title) {
  const HtmlWebpackPlugin = require('html-webpack-plugin');
  const css = portalCss();
  return new HtmlWebpackPlugin({
    templateContent: `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${css}</style></head><body><main id="main"><div id="root"></div></main></body></html>`,
    chunks: ['main'],
  });
}

/** Reads a CLI `--env key=value` or an environment variable, CLI first. */
function setting(env, key, envName, fallback) {
  if (env && env[key] !== undefined && env[key] !== true) return String(env[key]);
  if (process.env[envName]) return process.env[envName];
  return fallback;
}

/** The @portal/runtime range a package declares (dependency or peer dependency); null if none. */
function runtimeRange(pkg) {
  return (pkg.dependencies || {})['@portal/runtime'] || (pkg.peerDependencies || {})['@portal/runtime'] || null;
}

/**
 * Webpack config for one micro-frontend remote.
 * Output dir, version and publicPath come from `--env outDir= version= publicPath=`
 * or MFE_OUT_DIR / MFE_VERSION / MFE_PUBLIC_PATH, so a copied package can be
 * published anywhere under any version.
 *
 * `fromShell`: shared modules the remote takes from the shell only, in published builds (which run
 * only inside the shell anyway: externalRuntime). Its remoteEntry then neither carries nor
 * announces a fallback copy of its own. Only for modules the shell itself imports (so provides):
 * mfe-qff uses it, whose remoteEntry is part of /home's first load.
 */
function createMfeConfig({ dir, exposes, fromShell = [] }) {
  return (env = {}, argv = {}) => {
    const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const name = (pkg.portal && pkg.portal.federationName) || pkg.name.replace(/[^a-zA-Z0-9_]/g, '_');
    const version = setting(env, 'version', 'MFE_VERSION', pkg.version);
    const outDir = path.resolve(setting(env, 'outDir', 'MFE_OUT_DIR', path.join(dir, 'dist')));
    const mode = argv.mode || 'production';
    // Standalone development build adds the src/index.ts entry and an index.html;
    // published builds are the remote only.
    const standalone = setting(env, 'standalone', 'MFE_STANDALONE', '') === '1';
    const publicPath = setting(env, 'publicPath', 'MFE_PUBLIC_PATH', standalone ? '/' : `/mfe/${pkg.name}/${version}/`);
    return {
      mode,
      context: dir,
      entry: standalone ? { main: './src/index.ts' } : {},
      devtool: false,
      target: 'web',
      resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
      module: { rules: [swcRule(), queryCoreViaReactQuery()] },
      output: {
        path: outDir,
        publicPath,
        uniqueName: name,
        filename: hashedFilename,
        chunkFilename: '[name].[contenthash:8].js',
        clean: true,
      },
      optimization: optimization(),
      performance: { hints: false },
      cache: false,
      plugins: [
        standalone && standalonePage(pkg.name),
        new (require('webpack').DefinePlugin)({
          __MFE_VERSION__: JSON.stringify(version),
          // The shared runtime's range this tab needs (@portal/kit/runtime-compat checks it).
          __PORTAL_RUNTIME_RANGE__: JSON.stringify(runtimeRange(pkg)),
        }),
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: standalone ? sharedSingletons(pkg) : fromShellOnly(sharedSingletons(pkg), fromShell),
          manifest: { fileName: 'mf-manifest.json' },
          // A remote never loads other remotes or manifests itself: leave that code out. Inside the
          // shell it uses the shell's federation runtime instead of shipping its own copy
          // (the standalone build has no shell, so it keeps one).
          experiments: {
            optimization: { disableSnapshot: true, disableRemote: !standalone, target: 'web' },
            externalRuntime: !standalone,
          },
          dts: false,
        }),
        ...precompress(),
      ].filter(Boolean),
    };
  };
}

/**
 * Brotli (quality 11) and gzip (level 9) copies of every text asset next to it, made once at
 * build time: the gateway serves the one the browser accepts (tower-http's precompressed
 * ServeDir), as a CDN would, instead of compressing on every request.
 */
function precompress() {
  const CompressionPlugin = require('compression-webpack-plugin');
  const zlib = require('node:zlib');
  const common = { test: /\.(js|css|html|json|svg)$/, threshold: 256, minRatio: 0.9 };
  return [
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
  ];
}

module.exports = {
  optimization,
  hashedFilename,
  sharedSingletons,
  swcRule,
  setting,
  createMfeConfig,
  precompress,
  portalCss,
  SHARED_FROM,
  runtimeRange,
};
