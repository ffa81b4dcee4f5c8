// Host build: shell → <out>/shell/<contenthash files>; its pages, drawn at build time
// (prerender.cjs): the login page → <out>/index.html, the signed-in frame → <out>/app.html.
// The remote list is read at run time from /mfe-manifest.json, never baked in here.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { optimization, hashedFilename, sharedSingletons, swcRule, setting, precompress, portalCss } = require('@portal/build');
const { StartAfterPaint } = require('./start-after-paint.cjs');
const { prerenderConfig, DrawPages } = require('./prerender.cjs');
const pkg = require('./package.json');

module.exports = (env = {}, argv = {}) => {
  const outRoot = path.resolve(setting(env, 'outDir', 'PORTAL_OUT_DIR', path.join(__dirname, 'dist')));
  const mode = argv.mode || 'production';
  const css = portalCss();
  // The same document for both pages: the stylesheet inline and the script (StartAfterPaint);
  // `prerender` names the page drawn into its root, `mustShow` what its markup must hold (else
  // the build fails).
  const page = (filename, prerender, mustShow) =>
    new HtmlWebpackPlugin({
      template: path.join(__dirname, 'src', 'index.html'),
      filename,
      inject: 'body',
      scriptLoading: 'defer',
      css,
      prerender,
      mustShow,
      minify: { collapseWhitespace: true, removeComments: true, minifyCSS: true },
    });
  return [
    prerenderConfig(mode),
    {
      name: 'shell',
      dependencies: ['prerender'],
      mode,
      context: __dirname,
      entry: { main: './src/index.ts' },
      devtool: false,
      target: 'web',
      resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
      module: { rules: [swcRule()] },
      output: {
        path: path.join(outRoot, 'shell'),
        publicPath: '/shell/',
        uniqueName: 'portal_shell',
        filename: hashedFilename,
        chunkFilename: '[name].[contenthash:8].js',
        clean: true,
      },
      optimization: optimization(),
      performance: { hints: false },
      cache: false,
      plugins: [
        new ModuleFederationPlugin({
          name: 'portal_shell',
          remotes: {},
          shared: sharedSingletons(pkg),
          manifest: false,
          // Remotes are built with externalRuntime: the shell hands them its federation runtime.
          // Loading a remote goes in steps of one task each (yield-runtime.ts).
          runtimePlugins: [
            path.join(__dirname, 'src', 'mfe', 'provide-runtime.ts'),
            path.join(__dirname, 'src', 'mfe', 'yield-runtime.ts'),
          ],
          experiments: { optimization: { target: 'web' } },
          dts: false,
        }),
        page('../index.html', 'login', ['<form', 'id="login-email"']),
        page('../app.html', 'app', ['<nav class="tabs"', 'id="home-title"']),
        // The pages' one script starts main.js and bootstrap.tsx's steps once the page is painted.
        new StartAfterPaint(['./bootstrap', 'i18next', '@portal/runtime', './setup', 'react-dom/client', './start']),
        new DrawPages(),
        ...precompress(),
      ],
    },
  ];
};
