// The service worker's code (src/sw/sw.ts) as one file, its precache list still a placeholder
// (`self.__WB_MANIFEST`): scripts/sw.mjs builds it into a temporary folder (SW_OUT_DIR) and writes
// /sw.js from it with Workbox's injectManifest, after every build and every publish of a remote.
const path = require('node:path');
const { optimization, swcRule, setting } = require('@portal/build');

module.exports = (env = {}, argv = {}) => ({
  mode: argv.mode || 'production',
  context: __dirname,
  entry: { sw: './src/sw/sw.ts' },
  devtool: false,
  target: 'webworker',
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [swcRule()] },
  output: {
    path: path.resolve(setting(env, 'outDir', 'SW_OUT_DIR', path.join(__dirname, '..', '..', '.tmp', 'sw'))),
    filename: '[name].js',
    clean: true,
  },
  optimization: optimization(),
  performance: { hints: false },
  cache: false,
});
