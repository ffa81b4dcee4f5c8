// Offline: writes are off with their reason (the shared WriteButton, SubmitButton and
// WriteFieldset every micro-frontend's forms use), the member's card on Home readable from what
// was kept, and the service worker's registration and routes.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { CARD_DISPLAY_KEY, LOYALTY_MEMBER_KEY, configStore, i18n, initAuth, initI18n, networkStore, setLanguage } from '@portal/runtime';
import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { SubmitButton } from '@portal/kit/fields';
import { WriteButton, WriteFieldset } from '@portal/kit/offline';
import { membershipNumber, readMemberRecord, rememberBalance, rememberMember } from '@portal/kit/member-record';
import { renderAt } from './setup';
import { registerServiceWorker } from '../sw-register';
import { APP_PAGE_URL, LOGIN_PAGE_URL, NOT_PAGES, isRemoteFile, isRemoteManifest, offlinePage } from '../sw/routes';

const REASON = "You're offline. You can save again when you're back online.";
const goOffline = () => act(() => networkStore.set({ online: false }));
const goOnline = () => act(() => networkStore.set({ online: true }));

afterEach(() => goOnline());

function withI18n(ui: React.ReactNode) {
  initI18n('?lang=en');
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}

describe('writes while offline', () => {
  it("turns a form's save button off with the reason, and on again online", () => {
    const onSubmit = jest.fn((e: React.FormEvent) => e.preventDefault());
    withI18n(
      <form onSubmit={onSubmit}>
        <SubmitButton busy={false} label="Save" busyLabel="Saving…" />
      </form>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    expect(screen.queryByText(REASON)).toBeNull();

    goOffline();
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(REASON);
    expect(screen.getByText(REASON)).toBeVisible();
    fireEvent.click(save);
    expect(onSubmit).not.toHaveBeenCalled();

    goOnline();
    expect(save).toBeEnabled();
    expect(save).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByText(REASON)).toBeNull();
    fireEvent.click(save);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("keeps a button's own description and, in a list, reads the reason only with the button", () => {
    withI18n(
      <>
        <p id="own">Costs 500 points</p>
        <WriteButton aria-describedby="own" reasonShown={false}>
          Activate
        </WriteButton>
      </>,
    );
    goOffline();
    const button = screen.getByRole('button', { name: 'Activate' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(`Costs 500 points ${REASON}`);
    expect(screen.getByText(REASON)).toHaveClass('visually-hidden');
  });

  it('turns switches that save as they change off offline', () => {
    withI18n(
      <WriteFieldset aria-label="Channels">
        <input type="checkbox" role="switch" aria-label="Email" />
      </WriteFieldset>,
    );
    expect(screen.getByRole('switch', { name: 'Email' })).toBeEnabled();
    goOffline();
    expect(screen.getByRole('switch', { name: 'Email' })).toBeDisabled();
    expect(screen.getByRole('group', { name: 'Channels' })).toHaveAccessibleDescription(REASON);
    goOnline();
    expect(screen.getByRole('switch', { name: 'Email' })).toBeEnabled();
  });

  it('gives the reason in the chosen language', async () => {
    withI18n(<WriteButton>Enregistrer</WriteButton>);
    await act(async () => {
      setLanguage('fr');
      await i18n.loadLanguages('fr');
    });
    goOffline();
    expect(screen.getByText('Vous êtes hors ligne. Vous pourrez enregistrer à nouveau une fois de retour en ligne.')).toBeInTheDocument();
    await act(async () => {
      setLanguage('en');
    });
  });
});

describe("the member's record", () => {
  it('is kept per profile: another member never sees it', () => {
    rememberMember('p_1', { number: 'LC-1' });
    rememberBalance('p_1', 1200, 1_700_000_000_000);
    expect(readMemberRecord('p_1')).toEqual({ profile_id: 'p_1', number: 'LC-1', points: 1200, points_at: 1_700_000_000_000 });
    expect(readMemberRecord('p_2')).toBeNull();
    rememberBalance('p_2', 5);
    expect(readMemberRecord('p_2')).toMatchObject({ profile_id: 'p_2', points: 5 });
    expect(readMemberRecord('p_1')).toBeNull();
  });

  it("numbers the card with the tenant's own identity, never the internal profile id", () => {
    const profile = {
      id: 'prf_1',
      identities: [
        { handle: 'email', identifier: 'a@b.c' },
        { handle: 'loyalty_card', identifier: 'LC-1001' },
      ],
    };
    expect(membershipNumber(profile, ['loyalty_card'])).toBe('LC-1001');
    expect(membershipNumber(profile, [])).toBe('');
    // The internal id is no fallback: with no card identity there is no number.
    expect(membershipNumber({ identities: [] }, ['loyalty_card'])).toBe('');
    expect(membershipNumber({ identities: [{ handle: 'email', identifier: 'a@b.c' }] }, ['loyalty_card'])).toBe('');
  });
});

describe("the member's card on Home", () => {
  const PROFILE = {
    id: 'p_demo',
    email: 'd@e.x',
    first_name: 'Dana',
    last_name: 'Demo',
    identities: [{ handle: 'loyalty_card', identifier: 'LC-1001' }],
  };

  beforeEach(() => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: Math.floor(Date.now() / 1000) + 600 }));
    initAuth();
    configStore.set({ config: { components: { profile: { identities: ['loyalty_card'] } } } as never, loaded: true });
  });

  async function showCard() {
    fireEvent.click(await screen.findByRole('button', { name: 'Show my membership card' }));
    return screen.findByRole('region', { name: 'Membership card' });
  }

  it('shows the number as a barcode and as text, and the balance, and keeps them', async () => {
    const stub = stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/profile/balances': { body: { data: { points: 1951, currency: 'AUD' } } },
    });
    renderAt('/home');
    await screen.findByRole('heading', { name: 'Hello, Dana' });
    // Hidden until asked for: its chunk (and the barcode library) is not fetched before.
    expect(screen.queryByRole('region', { name: 'Membership card' })).toBeNull();
    const card = await showCard();
    expect(await within(card).findByText('1,951 points')).toBeInTheDocument();
    expect(within(card).getByText('Points balance')).toBeInTheDocument();
    expect(within(card).getByText('LC-1001')).toBeInTheDocument();
    const barcode = within(card).getByRole('img', { name: 'Barcode of member number LC-1001' });
    expect(barcode.tagName.toLowerCase()).toBe('svg');
    // Drawn by the barcode library in an effect once the number is known: wait for the bars.
    await waitFor(() => expect(barcode.querySelectorAll('rect').length).toBeGreaterThan(20));
    expect(localStorage.getItem(CARD_DISPLAY_KEY)).toBe('1');
    expect(readMemberRecord('p_demo')).toMatchObject({ number: 'LC-1001', points: 1951 });
    stub.restore();
  });

  it('shows the kept number and the last known balance offline', async () => {
    localStorage.setItem(CARD_DISPLAY_KEY, '1');
    localStorage.setItem(
      LOYALTY_MEMBER_KEY,
      JSON.stringify({ profile_id: 'p_demo', number: 'LC-1001', points: 740, points_at: Date.UTC(2026, 10, 20, 1, 30) }),
    );
    const stub = stubFetch({
      'GET /api/profile': { networkError: true },
      'GET /api/profile/balances': { networkError: true },
    });
    goOffline();
    renderAt('/home');
    const card = await screen.findByRole('region', { name: 'Membership card' });
    expect(within(card).getByText('Last known balance')).toBeInTheDocument();
    expect(within(card).getByText('740 points')).toBeInTheDocument();
    expect(within(card).getByText(/^as of 20 Nov 2026, 12:30 pm$/)).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Barcode of member number LC-1001' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide my membership card' })).toHaveAttribute('aria-expanded', 'true');
    stub.restore();
  });

  it("says the card is not there yet offline when nothing was kept, and never shows another member's", async () => {
    localStorage.setItem(CARD_DISPLAY_KEY, '1');
    localStorage.setItem(LOYALTY_MEMBER_KEY, JSON.stringify({ profile_id: 'p_other', number: 'LC-9', points: 3 }));
    const stub = stubFetch({ 'GET /api/profile': { networkError: true } });
    goOffline();
    renderAt('/home');
    const card = await screen.findByRole('region', { name: 'Membership card' });
    expect(within(card).getByText("Your card isn't available offline yet: open it once while you're online.")).toBeInTheDocument();
    expect(within(card).queryByText('LC-9')).toBeNull();
    expect(within(card).queryByRole('img')).toBeNull();
    stub.restore();
  });

  it('hides the card again and forgets the choice', async () => {
    localStorage.setItem(CARD_DISPLAY_KEY, '1');
    const stub = stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/profile/balances': { body: { data: { points: 1, currency: 'AUD' } } },
    });
    renderAt('/home');
    await screen.findByRole('region', { name: 'Membership card' });
    fireEvent.click(screen.getByRole('button', { name: 'Hide my membership card' }));
    expect(screen.queryByRole('region', { name: 'Membership card' })).toBeNull();
    expect(localStorage.getItem(CARD_DISPLAY_KEY)).toBeNull();
    stub.restore();
  });
});

describe('the service worker', () => {
  it('is registered once the page has loaded', () => {
    const register = jest.fn(() => Promise.resolve());
    const listeners: Record<string, () => void> = {};
    const win = {
      navigator: { serviceWorker: { register } },
      document: { readyState: 'interactive' },
      addEventListener: (type: string, fn: () => void) => (listeners[type] = fn),
    } as unknown as Window;
    registerServiceWorker(win);
    expect(register).not.toHaveBeenCalled();
    listeners.load();
    expect(register).toHaveBeenCalledWith('/sw.js');
  });

  it('is registered at once when the page has already loaded, and not where there are none', () => {
    const register = jest.fn(() => Promise.reject(new Error('refused')));
    registerServiceWorker({ navigator: { serviceWorker: { register } }, document: { readyState: 'complete' } } as unknown as Window);
    expect(register).toHaveBeenCalledTimes(1);
    expect(() => registerServiceWorker({ navigator: {}, document: { readyState: 'complete' } } as unknown as Window)).not.toThrow();
  });

  it('answers remote files and the remote list, and leaves the API and dev pages alone', () => {
    expect(isRemoteFile('/mfe/mfe-rewards/0.1.1/remoteEntry.js')).toBe(true);
    expect(isRemoteFile('/mfe/mfe-rewards/0.1.1/rewards.8363f297.js')).toBe(true);
    expect(isRemoteFile('/mfe/mfe-rewards/remoteEntry.js')).toBe(false);
    expect(isRemoteFile('/mfe-manifest.json')).toBe(false);
    expect(isRemoteManifest('/mfe-manifest.json')).toBe(true);
    const page = (p: string) => !NOT_PAGES.some((re) => re.test(p));
    expect(page('/rewards/item/101')).toBe(true);
    expect(page('/')).toBe(true);
    expect(page('/api/profile')).toBe(false);
    expect(page('/api')).toBe(false);
    expect(page('/_dev/outbox')).toBe(false);
    expect(page('/healthz')).toBe(false);
  });

  it('opens the page the gateway would answer when offline: the login page for /, the signed-in frame elsewhere', () => {
    expect(offlinePage('/')).toBe(LOGIN_PAGE_URL);
    expect(LOGIN_PAGE_URL).toBe('/');
    for (const p of ['/home', '/profile', '/rewards/item/101', '/logged-out', '/loc/melbourne-central'])
      expect(offlinePage(p)).toBe(APP_PAGE_URL);
    // Precached under an address the gateway answers with app.html (with the page's headers).
    expect(APP_PAGE_URL).toBe('/home');
  });
});
