// Home's points summary (src/features/home): each part from the five routes it reads, the empty states
// (no vouchers, no points expiring, the top tier), a failure that leaves the rest of Home whole,
// the last known summary offline with its time, and a staff view that only reads.
import path from 'node:path';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { LOYALTY_MEMBER_KEY, authStore, configStore, initAuth, networkStore, setLanguage } from '@portal/runtime';
import { makeToken, stubFetch, type StubResponse } from '@portal/kit/fetch-stub';
import { describePluralCatalogs } from '@portal/kit/catalogs';
import { NEARBY_STORES_ROUTES, renderAt } from './setup';
import { readKept, summarise } from '../features/home/api/summary-data';

describePluralCatalogs(path.join(__dirname, '..', 'features', 'home', 'i18n'), { name: 'home summary', minKeys: 20 });

const PID = 'p_home';
const PROFILE = { id: PID, memberNumber: '1234567890', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo', identities: [] };

const reward = (id: number, name: string, status = 'available') => ({
  id,
  name,
  description: '',
  terms: '',
  points_cost: 500,
  source: 'redemption',
  status,
  issued_at: '2026-11-01T00:00:00Z',
  expires_at: null,
  used_at: null,
  code: 'K7QM',
});
const offer = (id: number, activated: boolean) => ({
  id,
  name: `Offer ${id}`,
  description: '',
  ends_at: '2026-12-31T00:00:00Z',
  is_claimable: true,
  activated,
});
const progress = (next: { handle: string; name: string; threshold: number } | null, needed: number, percent: number) => ({
  data: {
    measure: 'points',
    window_days: 365,
    qualifying: 1450,
    current: { handle: 'silver', name: 'Silver', threshold: 1000 },
    next,
    needed,
    progress_percent: percent,
    kept_until: null,
  },
});

const FULL: Record<string, StubResponse> = {
  'GET /api/profile/balances': { body: { data: { points: 12450, currency: 'AUD' } } },
  'GET /api/profile/tiers/progress': { body: progress({ handle: 'gold', name: 'Gold', threshold: 2000 }, 550, 45) },
  'GET /api/profile/points/expiring': {
    body: {
      data: [
        { points: 120, date: '2027-03-31', expires_at: '2027-03-30T13:00:00Z' },
        { points: 300, date: '2026-12-31', expires_at: '2026-12-30T13:00:00Z' },
      ],
    },
  },
  'GET /api/profile/rewards': { body: { data: [reward(101, '$10 voucher'), reward(102, 'Free coffee'), reward(103, 'Old one', 'used')] } },
  'GET /api/profile/benefits': { body: { data: [offer(1, false), offer(2, false), offer(3, true)] } },
};

function stub(routes: Record<string, StubResponse>) {
  return stubFetch({ 'GET /api/profile': { body: PROFILE }, ...NEARBY_STORES_ROUTES, ...routes });
}

/** A text as the member reads it, names isolated in <bdi> included: the innermost element holding all of it. */
const whole = (text: string) => (_: string, el: Element | null) =>
  el?.textContent === text && [...el.children].every((c) => c.textContent !== text);

/** The summary once it shows `text` (it replaces its skeleton, a section of the same name). */
async function summaryWith(text: string | RegExp, name = 'Your points') {
  await screen.findByText(text);
  return screen.getByRole('region', { name });
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('portal.auth', makeToken({ pid: PID, exp: Math.floor(Date.now() / 1000) + 600 }));
  initAuth();
  configStore.set({ config: {} as never, loaded: true });
});

afterEach(() => act(() => networkStore.set({ online: true })));

describe("Home's points summary", () => {
  it('shows the balance, the tier and its progress, the next points to expire, the vouchers and the new offers', async () => {
    const s = stub(FULL);
    renderAt('/home');
    const region = await summaryWith('12,450');
    expect(within(region).getByText('Points balance')).toBeInTheDocument();
    expect(within(region).getByText(whole('Silver tier'))).toBeInTheDocument();
    expect(within(region).getByText(whole('550 points to Gold'))).toBeInTheDocument();
    const bar = within(region).getByRole('progressbar', { name: 'Progress to Gold' });
    expect(bar).toHaveAttribute('aria-valuenow', '45');
    expect(bar).toHaveAttribute('aria-valuetext', '550 points to Gold');
    expect(within(region).getByText('300 points expire on 31 Dec 2026')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: '2 rewards ready to use' })).toHaveAttribute('href', '/rewards');
    expect(within(region).getByRole('link', { name: '$10 voucher' })).toHaveAttribute('href', '/rewards/item/101');
    expect(within(region).getByRole('link', { name: 'Free coffee' })).toHaveAttribute('href', '/rewards/item/102');
    expect(within(region).queryByRole('link', { name: 'Old one' })).toBeNull();
    expect(within(region).getByRole('link', { name: '2 new offers' })).toHaveAttribute('href', '/offers');
    // Kept for offline, with the balance the card shows.
    expect(readKept(PID)?.summary.points).toBe(12450);
    expect(JSON.parse(localStorage.getItem(LOYALTY_MEMBER_KEY)!)).toMatchObject({ profile_id: PID, points: 12450 });
    s.restore();
  });

  it('says so when nothing is ready, nothing expires and the member is at the top tier', async () => {
    const s = stub({
      ...FULL,
      'GET /api/profile/tiers/progress': { body: progress(null, 0, 100) },
      'GET /api/profile/points/expiring': { body: { data: [] } },
      'GET /api/profile/rewards': { body: { data: [reward(103, 'Old one', 'expired')] } },
      'GET /api/profile/benefits': { body: { data: [offer(3, true)] } },
    });
    renderAt('/home');
    const region = await summaryWith("You're at the top tier");
    expect(within(region).getByRole('progressbar', { name: 'Silver tier' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(region).getByText('No points expiring soon')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'No rewards ready to use: see Rewards' })).toHaveAttribute('href', '/rewards');
    expect(within(region).getByText('Your vouchers will show here')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'No new offers: see Offers' })).toHaveAttribute('href', '/offers');
    s.restore();
  });

  it('shows the parts that loaded when one fails', async () => {
    const s = stub({
      ...FULL,
      'GET /api/profile/points/expiring': { status: 500, body: { status: 500, message: 'x', errors: {}, error: true } },
    });
    renderAt('/home');
    const region = await summaryWith('12,450');
    expect(within(region).getByText("Expiring points couldn't be loaded")).toBeInTheDocument();
    s.restore();
  });

  it('reports a failure in its own box, with a retry, and the rest of Home stays', async () => {
    const down = { status: 503, body: { status: 503, message: 'Unavailable', errors: {}, error: true } };
    const s = stub({
      'GET /api/profile/balances': down,
      'GET /api/profile/tiers/progress': down,
      'GET /api/profile/points/expiring': down,
      'GET /api/profile/rewards': down,
      'GET /api/profile/benefits': down,
    });
    renderAt('/home');
    const region = await summaryWith("Your points couldn't be loaded.");
    // A polite status, not an alert: the session-expiry toast is the page's one assertive message.
    expect(within(region).getByRole('status')).toHaveTextContent("Your points couldn't be loaded.");
    expect(within(region).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, Dana' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /My Details/ }).length).toBeGreaterThan(0);
    s.restore();

    const again = stub(FULL);
    fireEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(within(await summaryWith('12,450')).getByText('Points balance')).toBeInTheDocument();
    again.restore();
  });

  it('offline, shows the last known summary with the time it was read', async () => {
    const at = Date.parse('2026-11-20T08:30:00Z');
    const summary = summarise(
      FULL['GET /api/profile/balances'].body as never,
      FULL['GET /api/profile/tiers/progress'].body as never,
      FULL['GET /api/profile/points/expiring'].body as never,
      FULL['GET /api/profile/rewards'].body as never,
      FULL['GET /api/profile/benefits'].body as never,
    );
    localStorage.setItem(LOYALTY_MEMBER_KEY, JSON.stringify({ profile_id: PID, home: { summary, at } }));
    const s = stubFetch({ 'GET /api/profile': { networkError: true } });
    act(() => networkStore.set({ online: false }));
    renderAt('/home');
    const region = await summaryWith('12,450');
    // Melbourne time, the kit's dateTime style.
    expect(within(region).getByText('Last known, 20 Nov 2026, 7:30 pm')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: '2 rewards ready to use' })).toBeInTheDocument();
    expect(s.calls.filter((c) => c.path.startsWith('/api/profile/'))).toEqual([]);
    s.restore();
  });

  it("offline without a kept summary says it isn't available yet", async () => {
    localStorage.setItem(LOYALTY_MEMBER_KEY, JSON.stringify({ profile_id: 'someone_else', home: { summary: {}, at: 1 } }));
    const s = stubFetch({ 'GET /api/profile': { networkError: true } });
    act(() => networkStore.set({ online: false }));
    renderAt('/home');
    const region = await summaryWith(/aren't available offline yet/);
    expect(within(region).queryByRole('progressbar')).toBeNull();
    s.restore();
  });

  it("in a staff view shows the member's summary, read only", async () => {
    act(() => authStore.set({ staff: true, impersonating: true }));
    const s = stub(FULL);
    renderAt('/home');
    const region = await summaryWith('12,450');
    expect(within(region).queryByRole('button')).toBeNull();
    expect(s.calls.every((c) => c.method === 'GET')).toBe(true);
    s.restore();
  });

  it('in Arabic', async () => {
    const s = stub(FULL);
    renderAt('/home');
    act(() => {
      setLanguage('ar');
    });
    const region = await summaryWith('12,450', 'نقاطك');
    expect(within(region).getByText('رصيد النقاط')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'مكافأتان جاهزتان للاستخدام' })).toHaveAttribute('href', '/rewards');
    s.restore();
  });

  it('names the tier and the vouchers in the page’s language, the default where there is none (issue 24)', async () => {
    const ar = (name: string) => ({ ar: { name } });
    const translated = {
      ...FULL,
      'GET /api/profile/tiers/progress': {
        body: {
          data: {
            ...progress({ handle: 'gold', name: 'Gold', threshold: 2000 }, 550, 45).data,
            current: { handle: 'silver', name: 'Silver', threshold: 1000, translations: ar('فضي') },
            next: { handle: 'gold', name: 'Gold', threshold: 2000, translations: ar('ذهبي') },
          },
        },
      },
      'GET /api/profile/rewards': {
        body: { data: [{ ...reward(101, '$10 voucher'), translations: ar('قسيمة بقيمة 10 $') }, reward(102, 'Free coffee')] },
      },
    };
    const s = stub(translated);
    renderAt('/home');
    act(() => {
      setLanguage('ar');
    });
    const region = await summaryWith('12,450', 'نقاطك');
    expect(within(region).getByText(/فضي/)).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'قسيمة بقيمة 10 $' })).toBeInTheDocument();
    // No Arabic for this one: its default.
    expect(within(region).getByRole('link', { name: 'Free coffee' })).toBeInTheDocument();
    expect(within(region).queryByText(/Silver/)).toBeNull();
    s.restore();
  });
});
