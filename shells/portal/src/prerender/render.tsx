// The entry of the Node bundle the shell's build runs (prerender.cjs): React's server renderer
// draws each page of DRAWN_PAGES to HTML, which goes into that page's <div id="root">. Nothing
// here may need a browser: the app's modules are loaded in plain Node.
import { renderToString } from 'react-dom/server';
import { DrawnAhead, initI18n, registerCatalogs } from '@portal/runtime';
import { SHELL_NS, shellCatalogs } from '../i18n/catalogs';
import { DRAWN_PAGES, drawAhead, isDrawnPage, type DrawnPage } from './pages';
import { AppTree } from './tree';

export { DRAWN_PAGES };

/** The markup of `page` (the inside of <div id="root">), in English. */
export function render(page: DrawnPage): string {
  if (!isDrawnPage(page)) throw new Error(`no such page to draw: ${String(page)}`);
  initI18n('?lang=en');
  registerCatalogs(SHELL_NS, shellCatalogs);
  drawAhead(page);
  return renderToString(
    <DrawnAhead.Provider value>
      <AppTree />
    </DrawnAhead.Provider>,
  );
}
