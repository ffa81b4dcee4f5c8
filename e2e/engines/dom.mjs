// What the engine journeys look for, found inside the page by one function that every engine runs
// the same way (WebDriver's "execute script", BiDi's script.callFunction, CDP's Runtime): an
// element by its role and accessible name, its label or its text, as a person would find it. The
// element found is marked with a data attribute so the driver can act on it natively (a real
// click, real keystrokes) by a CSS selector.

/**
 * Runs in the page. `q`: { role?, name?, label?, text?, css?, exact?, level?, hasText?, enabled?, within?: query }.
 * Marks the first visible match with data-engine-hit=`mark` and returns its selector, or null.
 * With `q.count`, returns how many visible elements match instead.
 */
export function findInPage(q, mark) {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    if (!el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0 && el.tagName.toLowerCase() !== 'svg') return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const byIds = (ids) =>
    norm(
      (ids || '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent || '')
        .join(' '),
    );
  const nameOf = (el) => {
    if (el.getAttribute('aria-labelledby')) return byIds(el.getAttribute('aria-labelledby'));
    if (el.getAttribute('aria-label')) return norm(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return norm(el.labels[0].textContent);
    if (el.tagName.toLowerCase() === 'img') return norm(el.getAttribute('alt'));
    const title = el.querySelector?.(':scope > title');
    if (title) return norm(title.textContent);
    return norm(el.textContent);
  };
  const ROLES = {
    button: 'button, [role="button"], input[type="submit"], input[type="button"]',
    link: 'a[href], [role="link"]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    region: 'section[aria-label], section[aria-labelledby], [role="region"]',
    dialog: 'dialog[open], [role="dialog"], [role="alertdialog"]',
    img: 'img, svg[role="img"], [role="img"]',
    article: 'article, [role="article"]',
    navigation: 'nav, [role="navigation"]',
    status: '[role="status"], output',
    textbox: 'input:not([type]), input[type="text"], input[type="email"], input[type="tel"], textarea',
  };
  // A name or label matches whole unless `exact: false`; a text matches a part unless `exact: true`.
  const matches = (text, want, whole = q.exact !== false) => {
    if (typeof want === 'object' && want && want.source !== undefined) return new RegExp(want.source, want.flags).test(text);
    return whole ? text === want : text.includes(want);
  };
  const scopeOf = (query) => {
    if (!query.within) return [document];
    return candidates(query.within);
  };
  function candidates(query) {
    const out = [];
    for (const scope of scopeOf(query)) {
      let found;
      if (query.css) found = [...scope.querySelectorAll(query.css)];
      else if (query.role) {
        found = [...scope.querySelectorAll(ROLES[query.role] || `[role="${query.role}"]`)];
        if (query.level) found = found.filter((el) => el.tagName.toLowerCase() === `h${query.level}`);
        if (query.name !== undefined) found = found.filter((el) => matches(nameOf(el), query.name));
      } else if (query.label !== undefined) {
        found = [...scope.querySelectorAll('input, select, textarea')].filter((el) => matches(nameOf(el), query.label));
      } else {
        // The deepest elements whose own text matches.
        const all = scope === document ? [...document.body.querySelectorAll('*')] : [scope, ...scope.querySelectorAll('*')];
        found = all.filter(
          (el) =>
            matches(norm(el.textContent), query.text, q.exact === true) &&
            ![...el.children].some((c) => matches(norm(c.textContent), query.text, q.exact === true)),
        );
      }
      if (query.hasText) found = found.filter((el) => norm(el.textContent).includes(query.hasText));
      // What a person can use: not disabled (a page drawn at build time keeps its buttons off
      // until its script runs).
      if (query.enabled) found = found.filter((el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true');
      out.push(...found.filter(visible));
    }
    return [...new Set(out)];
  }
  const found = candidates(q);
  if (q.count) return found.length;
  if (!found.length) return null;
  found[0].setAttribute('data-engine-hit', mark);
  return `[data-engine-hit="${mark}"]`;
}
