// The document title follows the route and the language (issue 24): "Rewards · My account",
// translated, for every route of the spec, with the tenant's site name in the page's language.
import { act, screen } from '@testing-library/react';
import { configStore, languageReady, navigate, setLanguage, type PortalConfig } from '@portal/runtime';
import { pageTitleKey } from '../layout/page-title';
import { MFE_ROUTES } from '../mfe/routes';
import en from '../i18n/en.json';
import { renderAt } from './setup';

const config = (title: unknown) =>
  ({ general: { tenant: 'demo', siteMeta: { title } }, components: {}, lastUpdated: 1 }) as unknown as PortalConfig;

afterEach(() => {
  act(() => configStore.set({ config: null, loaded: true }));
});

describe('the page title', () => {
  it('names every route of the spec, the tabs’ sub-routes included', () => {
    const keys = Object.values(MFE_ROUTES)
      .flat()
      .map((route) => pageTitleKey(route.replace(':id', '101'), ''));
    expect(keys).toEqual([
      'profile',
      'privacy',
      'size',
      'messaging',
      'preference',
      'transactions',
      'claim',
      'wishlist',
      'rewards',
      'reward',
      'offers',
    ]);
    expect(pageTitleKey('/', '')).toBe('signIn');
    expect(pageTitleKey('/home', '')).toBe('home');
    expect(pageTitleKey('/home', '', true)).toBe('staff');
    expect(pageTitleKey('/loc/melbourne-central', '')).toBe('store');
    expect(pageTitleKey('/event/spring-launch', '')).toBe('event');
    expect(pageTitleKey('/', '?mode=event&m=spring-launch')).toBe('event');
    expect(pageTitleKey('/logged-out', '')).toBe('loggedOut');
    expect(pageTitleKey('/email-change/undo', '')).toBe('emailChangeUndo');
    expect(pageTitleKey('/nowhere', '')).toBe('notFound');
    // Every key has its text in English (and so, by the catalogs test, in every language).
    for (const key of [...keys, 'signIn', 'home', 'staff', 'store', 'event', 'loggedOut', 'emailChangeUndo', 'notFound'])
      expect([key, (en.pageTitle as Record<string, string>)[key]?.length > 0]).toEqual([key, true]);
  });

  it('follows navigation and the language, with the tenant’s site name in that language', async () => {
    renderAt('/rewards');
    expect(document.title).toBe('Rewards · My account');
    act(() => navigate('/offers'));
    expect(document.title).toBe('Offers · My account');
    act(() => navigate('/rewards/item/101'));
    expect(document.title).toBe('Reward · My account');
    setLanguage('ar');
    await act(() => languageReady());
    expect(document.title).toBe('المكافأة · حسابي');
    act(() => navigate('/rewards'));
    expect(document.title).toBe('المكافآت · حسابي');
    // The tenant's name, translated: the header too.
    act(() => configStore.set({ config: config({ en: 'Harbour club', ar: 'نادي هاربر' }), loaded: true }));
    expect(document.title).toBe('المكافآت · نادي هاربر');
    expect(screen.getByText('نادي هاربر', { selector: '.header__title' })).toBeInTheDocument();
    // A language the tenant did not translate: its default.
    setLanguage('th');
    await act(() => languageReady());
    expect(document.title).toBe('รางวัล · Harbour club');
    setLanguage('en');
    await act(() => languageReady());
  });
});
