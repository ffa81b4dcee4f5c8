/**
 * @jest-environment node
 */
// The pages the shell's build draws (prerender.cjs runs src/prerender/render.tsx in plain Node):
// rendered here without a browser at all (no window, document or storage), as the build does.
import { DRAWN_PAGES, render } from '../prerender/render';

/** The markup as a browser would parse it: tags and texts, without React's text separators. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

it('runs without a browser', () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  expect(typeof localStorage).toBe('undefined');
});

describe('the login page (index.html)', () => {
  const html = render('login');

  it('is the sign-in form, signed out, in English', () => {
    expect(html).toMatch(/<form[^>]*>/);
    expect(html).toMatch(/<input[^>]*id="login-email"[^>]*type="email"/);
    expect(html).toMatch(/<label for="login-email">Email address<\/label>/);
    // Its buttons wait for the script (the browser alone would only reload the page).
    expect(html).toMatch(/<button type="submit" class="btn" disabled="">Email me a sign-in link<\/button>/);
    expect(html).toMatch(/<button type="button" class="btn-link" disabled="">Email me a code instead<\/button>/);
    expect(html).toContain('<h1 id="login-title">Sign in to your account</h1>');
    expect(text(html)).toContain("Enter your email address and we'll send you a secure sign-in link.");
    expect(text(html)).toContain('Email me a code instead');
  });

  it('has the frame of a visitor: header with the default title, no tabs, no Log out', () => {
    expect(html).toMatch(/<header class="header header--sticky">/);
    expect(html).toContain('<span class="header__title">My account</span>');
    expect(html).toContain('<a href="/" class="header__logo">');
    expect(html).not.toContain('class="tabs"');
    expect(text(html)).not.toContain('Log out');
    expect(html).toContain('<main id="main" tabindex="-1">');
    expect(html).toContain('<div id="mfe-outlet"></div>');
  });
});

describe('the signed-in frame (app.html)', () => {
  const html = render('app');

  it('has the header with Log out and the tabs, Home the current one', () => {
    expect(html).toContain('<a href="/home" class="header__logo">');
    expect(html).toMatch(/<button type="button" class="btn-link" disabled="">Log out<\/button>/);
    expect(html).toMatch(/<nav class="tabs" aria-label="Account sections">/);
    const tabs = [...html.matchAll(/<li><a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => [
      m[1],
      m[3],
      Boolean(m[2]),
    ]);
    expect(tabs).toEqual([
      ['/home', 'Home', true],
      ['/profile', 'My Details', false],
      ['/transactions', 'My Orders', false],
      ['/rewards', 'Rewards', false],
      ['/offers', 'Offers', false],
    ]);
  });

  it('has Home as it first draws: the greeting without a name, the cards, room for the frequent-flyer summary', () => {
    expect(html).toContain('<h1 id="home-title">Welcome back</h1>');
    expect(text(html)).toContain('What would you like to do today?');
    for (const [href, title] of [
      ['/profile', 'My Details'],
      ['/transactions', 'My Orders'],
      ['/rewards', 'Rewards'],
      ['/offers', 'Offers'],
    ]) {
      expect(html).toContain(`<a href="${href}" class="card"><h2>${title}</h2>`);
    }
    expect(html).toMatch(
      /<button type="button" class="btn btn-secondary" aria-expanded="false" aria-controls="member-card" disabled="">Show my membership card<\/button>/,
    );
    expect(html).toContain('<div class="home-qff" data-remote="mfe_qff">');
    // Nothing of the browser's: no native "Shop now", no card, no offline banner, no toasts.
    expect(text(html)).not.toMatch(/Shop now|Membership card|No internet connection/);
  });
});

it('draws each page the same whichever was drawn before', () => {
  const login = render('login');
  const app = render('app');
  expect(render('login')).toBe(login);
  expect(render('app')).toBe(app);
  expect(login).not.toBe(app);
  expect(Object.keys(DRAWN_PAGES)).toEqual(['login', 'app']);
  expect(() => render('nope' as never)).toThrow('no such page to draw: nope');
});
