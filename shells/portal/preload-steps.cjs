// The files the shell's start needs, preloaded by its pages: bootstrap.tsx goes in steps, each a
// dynamic import (`@portal/runtime`, `./setup`, `react-dom/client`, `./start`), so that each is
// evaluated in a task of its own; the page still fetches all of them at once, with main.js.
const { PreloadStartupChunks } = require('@portal/build/preload-startup.cjs');

class PreloadStartupSteps extends PreloadStartupChunks {
  /** `requests`: the dynamic imports of the start, in order (the first is the entry's). */
  constructor(requests) {
    super({ request: requests[0] });
    this.requests = requests;
  }

  /** The files of every step (each one's chunks and the shared modules they consume). */
  startupFiles(compilation) {
    const files = new Set();
    for (const request of this.requests) {
      for (const file of new PreloadStartupChunks({ request }).startupFiles(compilation)) files.add(file);
    }
    return [...files].sort();
  }
}

module.exports = { PreloadStartupSteps };
