// Builds this micro-frontend as a module-federation remote exposing ./app (single-spa lifecycles).
// Output dir, version and publicPath: --env outDir=… version=… publicPath=… or MFE_OUT_DIR/MFE_VERSION/MFE_PUBLIC_PATH.
module.exports = require('@portal/build').createMfeConfig({
  dir: __dirname,
  exposes: { './app': './src/app.tsx' },
});
