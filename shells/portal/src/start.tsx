import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { DrawnAhead } from '@portal/runtime';
import { AppTree } from './prerender/tree';
import { drawAhead, isDrawnPage, type DrawnPage } from './prerender/pages';

/** The page the build drew into `root` (its `data-prerendered`), or null for an empty root. */
export function drawnPage(root: HTMLElement): DrawnPage | null {
  const page = root.dataset.prerendered;
  return isDrawnPage(page) && root.firstElementChild ? page : null;
}

/** Draws the page as it was drawn ahead of time, then (in a transition) the current state. */
function DrawnThenCurrent({ children }: { children: ReactNode }) {
  const [drawn, setDrawn] = useState(true);
  useEffect(() => startTransition(() => setDrawn(false)), []);
  return <DrawnAhead.Provider value={drawn}>{children}</DrawnAhead.Provider>;
}

/**
 * Draws the app into `root`. HTML the build drew is hydrated: React first renders the state it
 * was drawn in (DrawnAhead: the stores' server state set by drawAhead, English, which the caller
 * holds with holdLanguage until `onReady`), so the elements on the screen are kept; then the
 * current state (the address, the session, the config, the language) in place. Both renders are
 * transitions, which React does in slices that leave the main thread free in between. An empty
 * root is rendered afresh. `onReady` runs once the app draws the current state. Returns the root.
 */
export function startApp(root: HTMLElement, onReady?: () => void): Root {
  const page = drawnPage(root);
  if (!page) {
    const created = createRoot(root);
    created.render(<AppTree onReady={onReady} />);
    return created;
  }
  drawAhead(page);
  let hydrated: Root | null = null;
  startTransition(() => {
    hydrated = hydrateRoot(
      root,
      <DrawnThenCurrent>
        <AppTree onReady={onReady} />
      </DrawnThenCurrent>,
    );
  });
  return hydrated!;
}
