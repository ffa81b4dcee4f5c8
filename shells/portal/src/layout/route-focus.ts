import { LOCATION_EVENT } from '@portal/runtime';

// Focus after a route change (WCAG 2.4.3): a page drawn without a load leaves the focus on the link
// that was followed (often gone with the old page, so on <body>), and a screen reader says nothing.
// Once the new page has drawn its main heading, the heading takes the focus (tabindex -1, so it is
// not a tab stop) and its text is said through a polite live region (once the text is final: Home
// greets "Hello" and then "Hello, Dana"). Not on the first load (the
// browser starts at the top of the page), not for a change of the query string alone, and never
// away from an element the member or the page itself has focused in the meantime.

/** How long <main> must stay unchanged before a page that kept the same heading counts as drawn. */
export const ROUTE_SETTLE_MS = 150;
/** After this long without a heading, <main> itself takes the focus. */
export const ROUTE_FOCUS_TIMEOUT_MS = 5000;
/** The heading is announced once its text has stayed the same for ROUTE_SETTLE_MS, or after this. */
export const ROUTE_ANNOUNCE_MAX_MS = 1000;

/** The page's main heading: the first <h1> in <main> that is not inside a dialog. */
function mainHeading(main: HTMLElement): HTMLElement | null {
  for (const h of Array.from(main.querySelectorAll<HTMLElement>('h1'))) {
    if (!h.closest('dialog')) return h;
  }
  return null;
}

function focusWhenDrawn(main: HTMLElement, announcer: HTMLElement): () => void {
  const before = mainHeading(main);
  const beforeText = before?.textContent ?? null;
  // The link or button that changed the route: still "not moved on" if it keeps the focus.
  const trigger = document.activeElement;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let stopAnnouncing = () => {};

  const stop = () => {
    observer.disconnect();
    clearTimeout(settle);
    clearTimeout(timeout);
  };
  const announce = (target: HTMLElement) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const say = () => {
      stopAnnouncing();
      const text = target === main ? '' : (target.textContent ?? '').trim();
      announcer.textContent = text || document.title;
    };
    const wait = () => {
      clearTimeout(quiet);
      quiet = setTimeout(say, ROUTE_SETTLE_MS);
    };
    const watcher = new MutationObserver(wait);
    if (target !== main) watcher.observe(target, { childList: true, subtree: true, characterData: true });
    const cap = setTimeout(say, ROUTE_ANNOUNCE_MAX_MS);
    stopAnnouncing = () => {
      watcher.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
    };
    wait();
  };
  const finish = (target: HTMLElement) => {
    stop();
    const active = document.activeElement;
    const untouched = !active || active === document.body || active === main || active === trigger || !active.isConnected;
    if (untouched) {
      if (target !== main && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
    }
    announce(target);
  };
  const check = () => {
    const heading = mainHeading(main);
    // A new heading (or the old one with a new text): the new page is there.
    if (heading && (heading !== before || heading.textContent !== beforeText)) {
      finish(heading);
      return;
    }
    // The same heading as before (a page of the same layout): once <main> is still.
    clearTimeout(settle);
    settle = setTimeout(() => {
      const now = mainHeading(main);
      if (now) finish(now);
    }, ROUTE_SETTLE_MS);
  };
  const observer = new MutationObserver(check);
  observer.observe(main, { childList: true, subtree: true, characterData: true });
  const timeout = setTimeout(() => finish(mainHeading(main) ?? main), ROUTE_FOCUS_TIMEOUT_MS);
  check();
  return () => {
    stop();
    stopAnnouncing();
  };
}

/**
 * Moves the focus to each new page's main heading in `main` after a route change (navigate() or
 * the browser's back and forward) and announces it in `announcer` (a polite live region).
 * Returns the function that stops it.
 */
export function watchRouteFocus(main: HTMLElement, announcer: HTMLElement): () => void {
  let path = window.location.pathname;
  let pending: (() => void) | null = null;
  const onLocation = () => {
    if (window.location.pathname === path) return;
    path = window.location.pathname;
    pending?.();
    pending = focusWhenDrawn(main, announcer);
  };
  window.addEventListener('popstate', onLocation);
  window.addEventListener(LOCATION_EVENT, onLocation);
  return () => {
    window.removeEventListener('popstate', onLocation);
    window.removeEventListener(LOCATION_EVENT, onLocation);
    pending?.();
  };
}
