import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { languageReady, setLanguage } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { announceDataChanged } from '@portal/kit/mfe-providers';
import { LEDGER, THIS_YEAR, TIER_PROGRESS, backend, callsTo, entry, failure, pointsPage, renderAt, resetAll, signIn } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => {
  stub.restore();
  setLanguage('en');
});

function replace(routes: Parameters<typeof backend>[0]) {
  stub.restore();
  stub = backend(routes);
}

const section = (name: string | RegExp) => screen.getByRole('region', { name });

describe('Rewards', () => {
  it('shows the balance big, the tier with its progress and date, and the points expiring next', async () => {
    await renderAt('/rewards');
    expect(screen.getByRole('heading', { level: 1, name: 'Rewards' })).toBeInTheDocument();
    const balance = await screen.findByText('3,049 points');
    expect(balance).toHaveClass('balance__value');

    const bar = await screen.findByRole('progressbar', { name: 'Progress to Platinum' });
    expect(bar).toHaveAttribute('aria-valuenow', '60');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(bar).toHaveAttribute('aria-valuetext', '1,951 points to Platinum');
    expect(screen.getByText('1,951 points to Platinum')).toBeInTheDocument();
    // The tier's name is data: isolated, within "Gold until 18 Dec 2026".
    const current = screen.getByText('Gold').closest('p')!;
    expect(current).toHaveTextContent('Gold until 18 Dec 2026');
    expect(screen.getByText('Gold').tagName).toBe('BDI');
    expect(screen.getByText('Counts the points you earned in the last 365 days')).toBeInTheDocument();

    const expiring = section('Expiring next');
    expect(await within(expiring).findByText(`1,200 points expire on 18 Dec ${THIS_YEAR}`)).toBeInTheDocument();
  });

  it('shows a spend tier in dollars, the top tier without a bar, and the lowest tier without a date', async () => {
    replace({
      'GET /api/profile/tiers/progress': {
        body: {
          data: {
            ...TIER_PROGRESS,
            measure: 'spend',
            qualifying: 304900,
            needed: 1951,
            current: { handle: 'gold', name: 'Gold', threshold: 200000 },
          },
        },
      },
    });
    await renderAt('/rewards');
    const bar = await screen.findByRole('progressbar', { name: 'Progress to Platinum' });
    expect(bar).toHaveAttribute('aria-valuetext', '$19.51 to Platinum');
    expect(screen.getByText('$19.51 to Platinum')).toBeInTheDocument();
    expect(screen.getByText('Counts what you spent in the last 365 days')).toBeInTheDocument();
  });

  it('at the top tier says so, without a bar', async () => {
    replace({
      'GET /api/profile/tiers/progress': {
        body: {
          data: {
            ...TIER_PROGRESS,
            current: { handle: 'platinum', name: 'Platinum', threshold: 5000 },
            next: null,
            needed: 0,
            progress_percent: 100,
          },
        },
      },
    });
    await renderAt('/rewards');
    expect(await screen.findByText("You're at our top tier. Thank you!")).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Platinum').closest('p')).toHaveTextContent('Platinum until 18 Dec 2026');
  });

  it('a member on the lowest tier sees its name alone, and "1 point to Gold"', async () => {
    replace({
      'GET /api/profile/tiers/progress': {
        body: {
          data: {
            ...TIER_PROGRESS,
            current: { handle: 'silver', name: 'Silver', threshold: 0 },
            next: { handle: 'gold', name: 'Gold', threshold: 2000 },
            needed: 1,
            progress_percent: 99,
            kept_until: null,
          },
        },
      },
    });
    await renderAt('/rewards');
    const bar = await screen.findByRole('progressbar', { name: 'Progress to Gold' });
    expect(bar).toHaveAttribute('aria-valuenow', '99');
    expect(screen.getByText('1 point to Gold')).toBeInTheDocument();
    expect(screen.getByText('Silver').closest('p')).toHaveTextContent(/^Silver$/);
  });

  it('a tenant without tiers (404) shows the balance without a tier', async () => {
    replace({ 'GET /api/profile/tiers/progress': failure(404, 'Not found') });
    await renderAt('/rewards');
    await screen.findByText('3,049 points');
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/tiers/progress')).toHaveLength(1));
    await waitFor(() => expect(within(section('Your points')).queryByText('Loading…')).toBeNull());
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(within(section('Your points')).queryByRole('alert')).toBeNull();
  });

  it('lists several expiry dates with the right plural, and says so calmly when nothing expires', async () => {
    const next = String(Number(THIS_YEAR) + 1);
    replace({
      'GET /api/profile/points/expiring': {
        body: {
          data: [
            { points: 1, date: `${THIS_YEAR}-12-18`, expires_at: `${THIS_YEAR}-12-17T13:00:00Z` },
            { points: 300, date: `${next}-01-05`, expires_at: `${next}-01-04T13:00:00Z` },
          ],
        },
      },
    });
    await renderAt('/rewards');
    const expiring = section('Expiring next');
    expect(await within(expiring).findByText(`1 point expires on 18 Dec ${THIS_YEAR}`)).toBeInTheDocument();
    expect(within(expiring).getByText(`300 points expire on 5 Jan ${next}`)).toBeInTheDocument();
    // One date style down the list: every date carries its year, this year's too.
    within(expiring)
      .getAllByRole('listitem')
      .forEach((line) => expect(line).toHaveTextContent(/ on \d{1,2} [A-Z][a-z]{2,3} \d{4}$/));
  });

  it('says "None of your points expire soon" for an empty list', async () => {
    replace({ 'GET /api/profile/points/expiring': { body: { data: [] } } });
    await renderAt('/rewards');
    expect(await screen.findByText('None of your points expire soon')).toBeInTheDocument();
    expect(within(section('Expiring next')).queryByRole('alert')).toBeNull();
  });

  it('splits the rewards into ready to use and used or expired, each linking to its voucher, status in words', async () => {
    await renderAt('/rewards');
    const mine = section('Your rewards');
    const ready = await within(mine).findByRole('region', { name: 'Ready to use' });
    const readyItems = within(ready).getAllByRole('listitem');
    expect(readyItems).toHaveLength(2);
    expect(within(readyItems[0]).getByRole('link', { name: '$10 voucher' })).toHaveAttribute('href', '/rewards/item/101');
    expect(readyItems[0]).toHaveTextContent('Available');
    expect(readyItems[0]).toHaveTextContent('Use by 31 Dec 2026');
    expect(within(readyItems[1]).getByRole('link', { name: 'Free coffee' })).toHaveAttribute('href', '/rewards/item/102');
    expect(readyItems[1]).toHaveTextContent('No expiry date');

    const past = within(mine).getByRole('region', { name: 'Used and expired' });
    const pastItems = within(past).getAllByRole('listitem');
    expect(pastItems.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Free coffee.*Used.*Used on 20 Sept? 2026$/),
      expect.stringMatching(/^Free shipping.*Expired.*Expired on 1 Sept? 2026$/),
    ]);
    expect(within(pastItems[0]).getByRole('link', { name: 'Free coffee' })).toHaveAttribute('href', '/rewards/item/103');
    // The status has a shape and an icon of its own, not only a colour.
    expect(within(pastItems[1]).getByText('Expired', { selector: '.status' }).querySelector('svg')).not.toBeNull();
  });

  it('says when there are no rewards at all', async () => {
    replace({ 'GET /api/profile/rewards': { body: { data: [] } } });
    await renderAt('/rewards');
    expect(await screen.findByText("You don't have any rewards yet. Redeem your points for one below.")).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Used and expired' })).toBeNull();
  });

  it('shows the catalogue cheapest first; what is not affordable yet says how many points are missing', async () => {
    await renderAt('/rewards');
    const catalogue = section('Redeem your points');
    const items = await within(catalogue).findAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Free coffee',
      '$10 voucher',
      'Canvas tote bag',
      '$25 voucher',
      'Personal styling session',
    ]);
    expect(items[0]).toHaveTextContent('300 points');
    expect(items[0]).toHaveTextContent('Valid for 30 days after you redeem it');
    const coffee = within(items[0]).getByRole('button', { name: 'Redeem Free coffee' });
    expect(coffee).toBeEnabled();
    expect(coffee).not.toHaveAttribute('aria-disabled');

    const styling = within(items[4]).getByRole('button', { name: 'Redeem Personal styling session' });
    expect(styling).toHaveAttribute('aria-disabled', 'true');
    expect(styling).toHaveAccessibleDescription('You need 2,951 more points');
    expect(within(items[4]).getByText('You need 2,951 more points')).toBeInTheDocument();
    // Looks off, but is no dead end: nothing opens, and a way to earn more is offered.
    fireEvent.click(styling);
    expect(screen.queryByRole('dialog')).toBeNull();
    const offers = within(catalogue).getByRole('link', { name: 'See your offers' });
    expect(offers).toHaveAttribute('href', '/offers');
  });

  it('a staff member viewing the account sees the catalogue without Redeem buttons', async () => {
    signIn({ impersonating: true });
    await renderAt('/rewards');
    const catalogue = section('Redeem your points');
    await within(catalogue).findAllByRole('listitem');
    expect(within(catalogue).queryAllByRole('button', { name: /^Redeem/ })).toEqual([]);
    expect(within(catalogue).getByText("You're viewing this account as staff: redeeming is switched off.")).toBeInTheDocument();
  });

  it('shows the points history newest first with a label per source, the detail, the date and the signed points', async () => {
    await renderAt('/rewards');
    const history = section('Points history');
    const lines = await within(history).findAllByRole('listitem');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('Reward redeemed');
    expect(within(lines[0]).getByText('Free coffee').tagName).toBe('BDI');
    expect(within(lines[0]).getByText('−300')).toBeInTheDocument();
    expect(lines[0]).toHaveTextContent('10 Nov 2026');
    expect(lines[1]).toHaveTextContent('Purchase');
    expect(within(lines[1]).getByText('Melbourne Central')).toBeInTheDocument();
    expect(within(lines[1]).getByText('+130')).toBeInTheDocument();
    expect(lines[1]).toHaveTextContent('Expires 2 Nov 2027');
    // An expiry has no detail; its date is in the tenant's zone (13:00Z is the next day in Melbourne).
    expect(lines[2]).toHaveTextContent(/^Points expired−50 points16 Oct 2026$/);
    expect(within(history).getByRole('status')).toHaveTextContent('Showing 3 of 3 entries');
    expect(within(history).queryByRole('button', { name: 'Load more' })).toBeNull();

    const [call] = callsTo(stub, 'GET', '/api/profile/points');
    expect(Object.fromEntries(new URL(call.url, 'http://x').searchParams)).toEqual({ sort: '-issued_at', page: '1', per_page: '20' });
  });

  it('labels each step of a conversion to Qantas Points: held, then completed or returned', async () => {
    const reason = 'Qantas Frequent Flyer 1900123456';
    replace({
      'GET /api/profile/points': {
        body: pointsPage([
          entry('led_r', 1000, 'conversion', reason, '2026-11-12T03:00:00Z', { kind: 'release' }),
          entry('led_h2', -1000, 'conversion', reason, '2026-11-12T02:00:00Z', { kind: 'hold' }),
          entry('led_c', 0, 'conversion', reason, '2026-11-11T03:00:00Z', { kind: 'confirm' }),
          entry('led_h1', -2000, 'conversion', reason, '2026-11-11T02:00:00Z', { kind: 'hold' }),
        ]),
      },
    });
    await renderAt('/rewards');
    const lines = await within(section('Points history')).findAllByRole('listitem');
    expect(lines.map((l) => l.querySelector('strong')?.textContent)).toEqual([
      'Returned from a Qantas Points transfer',
      'Held for Qantas Points',
      'Qantas Points transfer completed',
      'Held for Qantas Points',
    ]);
    expect(within(lines[0]).getByText('+1,000')).toBeInTheDocument();
  });

  it('says a credit whose date has passed "Expired", not "Expires"', async () => {
    replace({
      'GET /api/profile/points': {
        body: pointsPage([entry('led_old', 500, 'bonus', 'Welcome bonus', '2024-10-01T01:00:00Z', { expires_at: '2025-10-01T01:00:00Z' })]),
      },
    });
    await renderAt('/rewards');
    const [line] = await within(section('Points history')).findAllByRole('listitem');
    expect(line).toHaveTextContent('Expired 1 Oct 2025');
    expect(line).not.toHaveTextContent('Expires');
  });

  it('loads more history on request and moves the focus to the first entry it brought', async () => {
    const first = Array.from({ length: 20 }, (_, i) =>
      entry(`led_a${i}`, 10 + i, 'purchase', `Store ${i}`, `2026-11-${String(28 - i).padStart(2, '0')}T01:00:00Z`),
    );
    const second = [
      first[19],
      entry('led_b1', 5, 'bonus', 'Welcome bonus', '2026-10-01T01:00:00Z'),
      entry('led_b2', -20, 'staff', 'Correction', '2026-09-01T01:00:00Z'),
    ];
    replace({
      'GET /api/profile/points': (req) => {
        const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
        return { body: page === 1 ? pointsPage(first, { total: 22 }) : pointsPage(second, { page: 2, total: 22 }) };
      },
    });
    await renderAt('/rewards');
    const history = section('Points history');
    await within(history).findByText('Showing 20 of 22 entries');
    fireEvent.click(within(history).getByRole('button', { name: 'Load more' }));
    await within(history).findByText('Showing 22 of 22 entries');
    const lines = within(history).getAllByRole('listitem');
    expect(lines).toHaveLength(22);
    await waitFor(() => expect(document.activeElement).toBe(lines[20]));
    expect(lines[20]).toHaveTextContent('Bonus');
    expect(lines[20]).toHaveTextContent('Welcome bonus');
    expect(lines[21]).toHaveTextContent('Adjustment by our team');
    expect(within(lines[21]).getByText('−20')).toBeInTheDocument();
    expect(within(history).queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(callsTo(stub, 'GET', '/api/profile/points').map((c) => new URL(c.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('says so when the history is empty', async () => {
    replace({ 'GET /api/profile/points': { body: pointsPage([]) } });
    await renderAt('/rewards');
    expect(await screen.findByText('No points activity yet.')).toBeInTheDocument();
  });

  it.each([
    ['balances', '/api/profile/balances', 'Your points'],
    ['tier', '/api/profile/tiers/progress', 'Your points'],
    ['expiring points', '/api/profile/points/expiring', 'Expiring next'],
    ['rewards', '/api/profile/rewards', 'Your rewards'],
    ['catalogue', '/api/profile/rewards/catalogue', 'Redeem your points'],
    ['history', '/api/profile/points', 'Points history'],
  ])('a failed %s load shows a friendly error in its own section, and tries again', async (_, path, sectionName) => {
    let fail = true;
    replace({ [`GET ${path}`]: () => (fail ? failure(500, 'database exploded') : { body: RETRIED[path] }) });
    await renderAt('/rewards');
    const alert = await within(section(sectionName)).findByRole('alert', {}, { timeout: 4000 });
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).not.toHaveTextContent('database exploded');
    // The rest of the page still works.
    expect(screen.getByRole('heading', { level: 2, name: 'Points history' })).toBeInTheDocument();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(section(sectionName)).queryByRole('alert')).toBeNull());
  });

  it('a balance change announced by another micro-frontend (a credited claim) refreshes what follows from it, once', async () => {
    await renderAt('/rewards');
    await screen.findByText('Showing 3 of 3 entries');
    await screen.findByText('1,951 points to Platinum');
    await screen.findByText('You need 2,951 more points');
    await screen.findByText(`1,200 points expire on 18 Dec ${THIS_YEAR}`);
    const paths = [
      '/api/profile/balances',
      '/api/profile/points',
      '/api/profile/points/expiring',
      '/api/profile/tiers/progress',
      '/api/profile/rewards/catalogue',
      '/api/profile/rewards',
    ];
    const counts = () => paths.map((p) => callsTo(stub, 'GET', p).length);
    expect(counts()).toEqual([1, 1, 1, 1, 1, 1]);
    act(() => announceDataChanged(['transactions', 'balances']));
    await waitFor(() => expect(counts()).toEqual([2, 2, 2, 2, 2, 1]));
  });

  it('reports one screen view', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await renderAt('/rewards');
    await screen.findByText('3,049 points');
    off();
    expect(events.map((e) => `${e.type}:${e.name}`)).toEqual(['screen_view:Rewards']);
  });

  it('the link to the offers fires offers_click and opens Offers', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await renderAt('/rewards');
    fireEvent.click(await screen.findByRole('link', { name: 'See your offers' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Offers' })).toBeInTheDocument();
    off();
    expect(events.map((e) => `${e.type}:${e.name}`)).toEqual(['screen_view:Rewards', 'event:offers_click', 'screen_view:Offers']);
  });

  it('renders right to left in Arabic, with names and signed points in their own direction', async () => {
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/rewards');
    expect(document.documentElement.dir).toBe('rtl');
    expect(await screen.findByRole('heading', { level: 1, name: 'المكافآت' })).toBeInTheDocument();
    const voucher = await screen.findByRole('link', { name: '$10 voucher' });
    expect(within(voucher).getByText('$10 voucher').tagName).toBe('BDI');
    const history = section('سجل النقاط');
    const redeemed = (await within(history).findAllByRole('listitem'))[0];
    expect(within(redeemed).getByText(/^−/).tagName).toBe('BDI');
    // Arabic plurals: 1,200 is "other", 1 would be "one" (six forms in the catalog).
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', expect.stringContaining('Platinum'));
    expect(screen.getByRole('button', { name: /Free coffee/ })).toBeInTheDocument();
  });
});

/** What a retry after a failure gets. */
const RETRIED: Record<string, unknown> = {
  '/api/profile/balances': { data: { points: 3049, currency: 'AUD' } },
  '/api/profile/tiers/progress': { data: TIER_PROGRESS },
  '/api/profile/points/expiring': { data: [] },
  '/api/profile/rewards': { data: [] },
  '/api/profile/rewards/catalogue': { data: [] },
  '/api/profile/points': pointsPage(LEDGER),
};
