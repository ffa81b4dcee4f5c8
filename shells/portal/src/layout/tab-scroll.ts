import { useEffect, useLayoutEffect, type RefObject } from 'react';

// On a phone the tab bar may be wider than the screen (five tabs, German or Greek labels): its list
// scrolls sideways. The current tab is scrolled into view when the page or the labels change (a
// deep link or a reload of the last tab included), and the bar says where more tabs are hidden
// (data-more-start / data-more-end on the <nav>, which CSS draws as a fading edge). Scroll
// positions are read as distances from the start edge, so right-to-left (where Chromium and
// Firefox count scrollLeft from 0 down) works the same. Only the list scrolls, never the page.

/** How far from the bar's edge the current tab must stay: the width of the fading edge. */
export const TAB_EDGE_PX = 40;

/** Marks the <nav> with the sides on which the list hides tabs. */
export function markHiddenSides(nav: HTMLElement, list: HTMLElement): void {
  const from = Math.abs(list.scrollLeft);
  const hidden = list.scrollWidth - list.clientWidth;
  nav.toggleAttribute('data-more-start', hidden > 1 && from > 1);
  nav.toggleAttribute('data-more-end', hidden > 1 && from < hidden - 1);
}

/**
 * Scrolls the list (not the page) when `item` is not clear of the fading edges: to centre it (where
 * the list snaps to), or all the way to an end when that is within a fade's width.
 */
export function bringIntoView(list: HTMLElement, item: HTMLElement): void {
  const max = list.scrollWidth - list.clientWidth;
  if (max <= 0) return;
  const box = list.getBoundingClientRect();
  const it = item.getBoundingClientRect();
  const edge = Math.min(TAB_EDGE_PX, Math.max(0, (box.width - it.width) / 2));
  if (it.left >= box.left + edge && it.right <= box.right - edge) return;
  // How far the list must move towards the right (+) or the left (-) of the screen.
  const right = it.left + it.width / 2 - (box.left + box.width / 2);
  // scrollLeft grows towards the right in either direction of text, from 0 at the start edge (the
  // right one in right-to-left, where it is negative): `from` is the distance from the start edge.
  // Moving towards an end, a tab that would stop short of it by less than a fade goes all the way.
  const rtl = getComputedStyle(list).direction === 'rtl';
  const now = Math.abs(list.scrollLeft);
  let from = now + (rtl ? -right : right);
  if (from > now && from > max - edge) from = max;
  if (from < now && from < edge) from = 0;
  from = Math.min(max, Math.max(0, from));
  list.scrollLeft = rtl ? -from : from;
}

/**
 * Keeps the current tab (`[aria-current="page"]` in `nav`'s list) in view whenever `key` changes
 * (the path and the labels), the window's size changes or the page's direction does, and the
 * hidden sides marked.
 */
export function useTabScroll(nav: RefObject<HTMLElement | null>, key: string): void {
  useLayoutEffect(() => {
    const list = nav.current?.querySelector('ul');
    if (!nav.current || !list) return;
    const current = list.querySelector<HTMLElement>('[aria-current="page"]');
    if (current) bringIntoView(list, current);
    markHiddenSides(nav.current, list);
  }, [nav, key]);
  useEffect(() => {
    const list = nav.current?.querySelector('ul');
    if (!nav.current || !list) return undefined;
    const el = nav.current;
    const mark = () => markHiddenSides(el, list);
    const resized = () => {
      const current = list.querySelector<HTMLElement>('[aria-current="page"]');
      if (current) bringIntoView(list, current);
      mark();
    };
    list.addEventListener('scroll', mark, { passive: true });
    window.addEventListener('resize', resized);
    // The page turning right-to-left (or back) moves the tabs to the other side: the language's
    // labels and its direction may arrive in either order.
    const turned = new MutationObserver(resized);
    turned.observe(document.documentElement, { attributes: true, attributeFilter: ['dir'] });
    // A web font that arrives late changes the labels' widths.
    void document.fonts?.ready.then(() => el.isConnected && resized());
    return () => {
      list.removeEventListener('scroll', mark);
      window.removeEventListener('resize', resized);
      turned.disconnect();
    };
  }, [nav]);
}
