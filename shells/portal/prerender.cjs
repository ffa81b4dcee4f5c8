// The shell's pages drawn at build time (src/prerender/pages.ts): the login page (index.html) and
// the signed-in frame (app.html) are HTML and CSS a phone paints before any script has run; the
// client then hydrates them (src/start.tsx).
//
// `prerenderConfig` bundles src/prerender/render.tsx for Node (React's server renderer, the
// English catalogs); webpack.config.js builds it before the shell (`dependencies`). `DrawPages`
// then loads that bundle and puts what it renders for each page into the page's
// <div id="root"></div>, after html-webpack-plugin has minified the template, so React's markup
// (with its comment markers between adjacent texts) goes in exactly as rendered.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { swcRule } = require('@portal/build');

const ROOT = '<div id="root"></div>';

/** Where the Node bundle goes (inside the repository's ignored .cache/). */
const RENDERER_DIR = path.resolve(__dirname, '..', '..', '.cache', 'prerender');

function prerenderConfig(mode) {
  return {
    name: 'prerender',
    mode,
    context: __dirname,
    entry: { render: './src/prerender/render.tsx' },
    devtool: false,
    target: 'node',
    resolve: { extensions: ['.tsx', '.ts', '.js', '.json'] },
    module: { rules: [swcRule()] },
    output: {
      path: RENDERER_DIR,
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      library: { type: 'commonjs2' },
      clean: true,
    },
    // The same production React as the browser's (process.env.NODE_ENV), not minified: it only runs here.
    optimization: { minimize: false },
    performance: { hints: false },
    cache: false,
  };
}

/** The pages' markup, rendered once per build by a fresh load of the Node bundle. */
function loadRenderer() {
  const file = path.join(RENDERER_DIR, 'render.js');
  for (const key of Object.keys(require.cache)) if (key.startsWith(RENDERER_DIR)) delete require.cache[key];
  return require(file);
}

/**
 * Fills the root of each HtmlWebpackPlugin page that names a page to draw (its `prerender`
 * option) with that page's markup, marked `data-prerendered` for the client. The build fails when
 * the renderer throws, when the template has no empty root, or when the markup lacks what the
 * page must show (`mustShow`: strings of the markup).
 */
class DrawPages {
  apply(compiler) {
    compiler.hooks.compilation.tap('DrawPages', (compilation) => {
      let renderer = null;
      HtmlWebpackPlugin.getCompilationHooks(compilation).beforeEmit.tapPromise('DrawPages', async (data) => {
        const { prerender: page, mustShow = [] } = data.plugin.options;
        if (!page) return data;
        renderer ??= loadRenderer();
        const markup = renderer.render(page);
        const missing = mustShow.filter((s) => !markup.includes(s));
        if (missing.length) throw new Error(`${data.outputName}: the ${page} page drawn at build time lacks ${missing.join(', ')}`);
        const at = data.html.indexOf(ROOT);
        if (at < 0 || data.html.indexOf(ROOT, at + 1) >= 0) throw new Error(`${data.outputName}: the template needs exactly one ${ROOT}`);
        const root = `<div id="root" data-prerendered="${page}">${markup}</div>`;
        return { ...data, html: data.html.slice(0, at) + root + data.html.slice(at + ROOT.length) };
      });
    });
  }
}

module.exports = { prerenderConfig, DrawPages, RENDERER_DIR };
