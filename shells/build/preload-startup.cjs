// Preloads the chunks the shell needs before it can draw anything. The shell starts with an
// async boundary (`import('./bootstrap')`, so module federation can settle the shared singletons
// first): main.js alone is in index.html, and the browser would only learn about React, i18next
// and the bootstrap chunk once main.js had run — a second round trip before the first screen.
// This plugin lists exactly those chunks (the bootstrap import's own, and the fallback chunks of
// the shared modules it consumes) as <link rel="preload" as="script"> in index.html, so they
// download in parallel with main.js, and preloads main.js itself (a deferred script otherwise
// gets a low priority).
const HtmlWebpackPlugin = require('html-webpack-plugin');

class PreloadStartupChunks {
  constructor({ request = './bootstrap' } = {}) {
    this.request = request;
  }

  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadStartupChunks', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadStartupChunks', (data) => {
        const files = this.startupFiles(compilation);
        const publicPath = compilation.getAssetPath(compilation.outputOptions.publicPath || '', {});
        const links = files.map((file) => ({
          tagName: 'link',
          voidTag: true,
          meta: { plugin: 'PreloadStartupChunks' },
          attributes: { rel: 'preload', as: 'script', href: `${publicPath}${file}` },
        }));
        data.headTags.push(...links);
        return data;
      });
    });
  }

  /**
   * The .js files of the entry, of the bootstrap import's chunk group, and of every shared module
   * those consume: the share scope serves a consumed module from the shell's own provided copy
   * (its provide block's chunks), or else from the consume's fallback chunks; the modules those
   * chunks consume in turn are followed too (the runtime consumes React and i18next).
   */
  startupFiles(compilation) {
    const { chunkGraph } = compilation;
    const bootstrap = compilation.chunkGroups.find((g) => g.origins.some((o) => o.request === this.request));
    if (!bootstrap) throw new Error(`PreloadStartupChunks: no chunk group for import('${this.request}')`);
    const entries = [...compilation.entrypoints.values()].flatMap((e) => e.chunks);
    const providers = new Map(); // share key -> provide-shared modules
    for (const module of compilation.modules) {
      if (module.type !== 'provide-module') continue;
      const key = module._name;
      if (!providers.has(key)) providers.set(key, []);
      providers.get(key).push(module);
    }
    const chunks = new Set([...entries, ...bootstrap.chunks]);
    const todo = [...chunks];
    const blockChunks = (module) =>
      module.blocks.flatMap((block) => {
        const group = chunkGraph.getBlockChunkGroup(block);
        return group ? group.chunks : [];
      });
    while (todo.length) {
      const chunk = todo.pop();
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        if (module.type !== 'consume-shared-module') continue;
        const key = module.options && module.options.shareKey;
        // The shell provides what it consumes: the share scope serves its provided copy, so the
        // consume's own fallback chunks are loaded only when nothing provides the module.
        const provided = providers.get(key);
        const found = provided ? provided.flatMap(blockChunks) : blockChunks(module);
        for (const c of found) {
          if (!chunks.has(c)) {
            chunks.add(c);
            todo.push(c);
          }
        }
      }
    }
    const files = new Set();
    for (const chunk of chunks) for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
    return [...files].sort();
  }
}

module.exports = { PreloadStartupChunks };
