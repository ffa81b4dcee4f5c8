// The tab bar on a phone (issue 24): where the tabs don't all fit, the current one is scrolled into
// view (left-to-right and right-to-left alike) and the bar marks the sides that hide tabs, which
// CSS draws as fading edges. jsdom has no layout: the list's and the tabs' boxes are stood in for
// (five tabs of 120 px in a 390 px list, fades of TAB_EDGE_PX).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n, initI18n, registerCatalogs } from '@portal/runtime';
import { TabBar } from '../layout/Frame';
import { TAB_EDGE_PX } from '../layout/tab-scroll';
import { SHELL_NS, shellCatalogs } from '../i18n/catalogs';

let BAR = 390;
const TAB = 120;
let rtl = false;
const scrolled = new WeakMap<Element, number>();
const restore: (() => void)[] = [];

function stub<K extends keyof HTMLElement>(key: K, descriptor: PropertyDescriptor) {
  const before = Object.getOwnPropertyDescriptor(HTMLElement.prototype, key);
  Object.defineProperty(HTMLElement.prototype, key, { configurable: true, ...descriptor });
  restore.push(() => {
    if (before) Object.defineProperty(HTMLElement.prototype, key, before);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
  });
}

function rect(left: number, width: number): DOMRect {
  return { left, right: left + width, width, top: 0, bottom: 44, height: 44, x: left, y: 0, toJSON: () => ({}) };
}

beforeEach(() => {
  rtl = false;
  BAR = 390;
  const max = () => 5 * TAB - BAR;
  stub('scrollWidth', { get: (): number => 5 * TAB });
  stub('clientWidth', { get: (): number => BAR });
  stub('scrollLeft', {
    get(this: HTMLElement): number {
      return scrolled.get(this) ?? 0;
    },
    // Clamped as a browser does: 0..max left-to-right, -max..0 right-to-left.
    set(this: HTMLElement, v: number) {
      scrolled.set(this, rtl ? Math.min(0, Math.max(-max(), v)) : Math.max(0, Math.min(max(), v)));
    },
  });
  stub('getBoundingClientRect', {
    value(this: HTMLElement): DOMRect {
      if (this.tagName === 'UL') return rect(0, BAR);
      const list = this.closest('ul')!;
      const i = Array.from(list.querySelectorAll('a')).indexOf(this as HTMLAnchorElement);
      const sl = list.scrollLeft;
      return rect(rtl ? BAR - (i + 1) * TAB - sl : i * TAB - sl, TAB);
    },
  });
});

afterEach(() => {
  while (restore.length) restore.pop()!();
});

function renderBar(path: string) {
  initI18n('?lang=en');
  registerCatalogs(SHELL_NS, shellCatalogs);
  return render(
    <I18nextProvider i18n={i18n}>
      <TabBar path={path} />
    </I18nextProvider>,
  );
}

const nav = () => screen.getByRole('navigation', { name: 'Account sections' });
const fades = () => [nav().hasAttribute('data-more-start'), nav().hasAttribute('data-more-end')];
const inView = (name: string) => {
  const r = screen.getByRole('link', { name }).getBoundingClientRect();
  return r.left >= 0 && r.right <= BAR;
};

test('a deep link to the last tab scrolls it into view; the start edge fades, the end does not', () => {
  renderBar('/offers');
  expect(screen.getByRole('link', { name: 'Offers' })).toHaveAttribute('aria-current', 'page');
  expect(inView('Offers')).toBe(true);
  expect(inView('Home')).toBe(false);
  expect(fades()).toEqual([true, false]);
});

test('on the first tab nothing scrolls, and the end edge fades', () => {
  renderBar('/home');
  expect(nav().querySelector('ul')!.scrollLeft).toBe(0);
  expect(inView('Home')).toBe(true);
  expect(fades()).toEqual([false, true]);
});

test('a tab in the middle out of view comes to the middle, clear of both fading edges', () => {
  renderBar('/transactions');
  const r = screen.getByRole('link', { name: 'My Orders' }).getBoundingClientRect();
  expect(r.left + r.width / 2).toBe(BAR / 2);
  expect(r.left).toBeGreaterThanOrEqual(TAB_EDGE_PX);
  expect(r.right).toBeLessThanOrEqual(BAR - TAB_EDGE_PX);
  expect(fades()).toEqual([true, true]);
});

test('right-to-left: the list scrolls the other way, the last tab is in view', () => {
  rtl = true;
  // jsdom does not inherit `direction` from <html dir="rtl">: the list gets it from a rule.
  const style = document.head.appendChild(document.createElement('style'));
  style.textContent = '.tabs ul { direction: rtl; }';
  renderBar('/offers');
  style.remove();
  const list = nav().querySelector('ul')!;
  expect(list.scrollLeft).toBeLessThan(0);
  expect(inView('Offers')).toBe(true);
  expect(fades()).toEqual([true, false]);
});

test('a change of page scrolls the new tab into view; the member scrolling updates the edges', () => {
  const { rerender } = renderBar('/home');
  rerender(
    <I18nextProvider i18n={i18n}>
      <TabBar path="/offers" />
    </I18nextProvider>,
  );
  expect(inView('Offers')).toBe(true);
  const list = nav().querySelector('ul')!;
  act(() => {
    list.scrollLeft = 0;
    fireEvent.scroll(list);
  });
  expect(fades()).toEqual([false, true]);
});

test('the page turning right-to-left after the labels (a language chosen on load) brings the tab back', async () => {
  renderBar('/offers');
  expect(nav().querySelector('ul')!.scrollLeft).toBeGreaterThan(0);
  rtl = true;
  const style = document.head.appendChild(document.createElement('style'));
  style.textContent = '.tabs ul { direction: rtl; }';
  await act(async () => {
    document.documentElement.dir = 'rtl';
    await Promise.resolve();
  });
  style.remove();
  document.documentElement.removeAttribute('dir');
  expect(nav().querySelector('ul')!.scrollLeft).toBeLessThan(0);
  expect(inView('Offers')).toBe(true);
});

test('a bar that hides less than a fade: the last tab still goes all the way, either direction', () => {
  BAR = 5 * TAB - 20;
  renderBar('/offers');
  expect(nav().querySelector('ul')!.scrollLeft).toBe(20);
  expect(inView('Offers')).toBe(true);
  cleanup();
  rtl = true;
  const style = document.head.appendChild(document.createElement('style'));
  style.textContent = '.tabs ul { direction: rtl; }';
  renderBar('/offers');
  style.remove();
  expect(nav().querySelector('ul')!.scrollLeft).toBe(-20);
  expect(inView('Offers')).toBe(true);
});
