// Builds this micro-frontend as a module-federation remote exposing ./app (single-spa lifecycles).
// Output dir, version and publicPath: --env outDir=… version=… publicPath=… or MFE_OUT_DIR/MFE_VERSION/MFE_PUBLIC_PATH.
module.exports = require('@portal/build').createMfeConfig({
  dir: __dirname,
  exposes: { './app': './src/app.tsx' },
  // Its remoteEntry is part of /home's first load: what the shell itself provides is taken from
  // the shell, not announced again with a copy of its own. (react-query is not among them: only the
  // account views use it, and the shell does not load it.)
  fromShell: ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client', '@portal/runtime', 'i18next', 'react-i18next'],
});
