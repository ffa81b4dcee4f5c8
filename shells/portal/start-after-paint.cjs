// How the shell's pages start their scripts. The pages are drawn at build time (prerender.cjs), so
// a phone paints them from their HTML alone; their one script is src/loader/start-after-paint.js
// (emitted as shell/start.<hash>.js), which waits for that paint, then fetches main.js and every
// file of the shell's start at once (listed in <meta name="portal-startup">, main.js first) and
// runs main.js. bootstrap.tsx's steps are dynamic imports (`requests`): their chunks, and the
// shared modules those consume, are the files listed.
//
// Why after the paint: Lighthouse counts every script that arrived before the first paint as
// needed for it. Preloaded with the HTML, the scripts arrived before or after the paint from one
// run to the next, and the measured LCP of the same build moved between 0.85 and 2 s.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { PreloadStartupChunks } = require('@portal/build/preload-startup.cjs');

const LOADER = path.join(__dirname, 'src', 'loader', 'start-after-paint.js');

class StartAfterPaint {
  /** `requests`: the start's dynamic imports, in order (the first is the entry's). */
  constructor(requests) {
    this.requests = requests;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('StartAfterPaint', (compilation) => {
      const source = fs.readFileSync(LOADER, 'utf8').replace(/^\s*\/\/.*\n/gm, '');
      const file = `start.${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      compilation.hooks.processAssets.tap({ name: 'StartAfterPaint', stage: compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset(file, new RawSource(source));
      });
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap('StartAfterPaint', (data) => {
        const publicPath = compilation.getAssetPath(compilation.outputOptions.publicPath || '', {});
        const entry = data.bodyTags.filter((tag) => tag.tagName === 'script');
        if (entry.length !== 1) throw new Error(`StartAfterPaint: expected the entry as the page's one script, found ${entry.length}`);
        const main = entry[0].attributes.src;
        const files = [
          main,
          ...this.files(compilation)
            .map((f) => `${publicPath}${f}`)
            .filter((f) => f !== main),
        ];
        data.headTags.push({
          tagName: 'meta',
          voidTag: true,
          meta: { plugin: 'StartAfterPaint' },
          attributes: { name: 'portal-startup', content: files.join(' ') },
        });
        data.bodyTags = data.bodyTags.filter((tag) => tag !== entry[0]);
        data.bodyTags.push({
          tagName: 'script',
          voidTag: false,
          meta: { plugin: 'StartAfterPaint' },
          attributes: { defer: true, src: `${publicPath}${file}` },
        });
        return data;
      });
    });
  }

  /** Every step's files: its chunks and those of the shared modules it consumes. */
  files(compilation) {
    const files = new Set();
    for (const request of this.requests) for (const f of new PreloadStartupChunks({ request }).startupFiles(compilation)) files.add(f);
    return [...files].sort();
  }
}

module.exports = { StartAfterPaint };
