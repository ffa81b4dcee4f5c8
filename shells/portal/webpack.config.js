// Host build: shell → <out>/shell/<contenthash files>, index.html → <out>/index.html.
// The remote list is read at run time from /mfe-manifest.json, never baked in here.
const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { optimization, hashedFilename, sharedSingletons, swcRule, setting, precompress } = require('@portal/build');
const { PreloadStartupChunks } = require('@portal/build/preload-startup.cjs');
const pkg = require('./package.json');

module.exports = (env = {}, argv = {}) => {
  const outRoot = path.resolve(setting(env, 'outDir', 'PORTAL_OUT_DIR', path.join(__dirname, 'dist')));
  return {
    mode: argv.mode || 'production',
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
        runtimePlugins: [path.join(__dirname, 'src', 'mfe', 'provide-runtime.ts')],
        experiments: { optimization: { target: 'web' } },
        dts: false,
      }),
      new HtmlWebpackPlugin({
        template: path.join(__dirname, 'src', 'index.html'),
        filename: '../index.html',
        inject: 'body',
        scriptLoading: 'defer',
        css: fs.readFileSync(path.join(__dirname, 'src', 'portal.css'), 'utf8'),
        minify: { collapseWhitespace: true, removeComments: true, minifyCSS: true },
      }),
      new PreloadStartupChunks(),
      ...precompress(),
    ],
  };
};
