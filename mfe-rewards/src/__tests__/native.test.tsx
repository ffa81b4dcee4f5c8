// Inside a native wrapper: Offers' "Shop now" (gotoShop) only when the wrapper offers it; the main
// actions reported with the spec's prefixes (offers_, rewards_); the screens' titles.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { installReactNative, postedActions, postedEvents, removeNativeWrappers } from '@portal/kit/native-testing';
import { OFFERS, REWARDS, backend, renderAt, resetAll, reward } from './fixtures';

let stub: FetchStub;
let posted: Record<string, unknown>[];

beforeEach(() => {
  resetAll();
  posted = [];
});
afterEach(() => {
  stub.restore();
  removeNativeWrappers();
});

const reactNative = () => installReactNative(posted);
const actions = () => postedActions(posted);
const events = () => postedEvents(posted);

async function openOffers() {
  await renderAt('/offers');
  await screen.findByRole('article', { name: 'Double points, this weekend only' });
}

describe('Shop now on Offers', () => {
  it('is not shown in a browser', async () => {
    stub = backend();
    await openOffers();
    expect(screen.queryByRole('button', { name: 'Shop now' })).toBeNull();
  });

  it('is not shown when the wrapper declares actions without gotoShop', async () => {
    reactNative();
    window.PortalNative = { actions: ['loadOfferList'] };
    stub = backend();
    await openOffers();
    expect(screen.queryByRole('button', { name: 'Shop now' })).toBeNull();
  });

  it('posts gotoShop (and offers_goto_shop) in a wrapper that offers it', async () => {
    reactNative();
    stub = backend();
    await openOffers();
    fireEvent.click(screen.getByRole('button', { name: 'Shop now' }));
    expect(actions().map((m) => m.action)).toEqual(['loadOfferList', 'gotoShop']);
    expect(events()).toEqual([{ name: 'offers_goto_shop', params: {} }]);
  });

  it('works with the Android shape declaring it through getActions()', async () => {
    window.PortalAndroid = { postMessage: (m: string) => posted.push(JSON.parse(m)), getActions: () => '["gotoShop"]' };
    stub = backend();
    await openOffers();
    fireEvent.click(screen.getByRole('button', { name: 'Shop now' }));
    // loadOfferList is not declared, so only gotoShop went.
    expect(actions()).toEqual([{ action: 'gotoShop' }]);
  });
});

describe('custom events', () => {
  it('offers_activate with the offer’s id', async () => {
    reactNative();
    stub = backend({
      'POST /api/profile/benefits/201/activate': {
        body: { data: { ...OFFERS[0], activated: true, activated_at: '2026-11-21T00:00:00Z' } },
      },
    });
    await openOffers();
    const double = screen.getByRole('article', { name: 'Double points, this weekend only' });
    fireEvent.click(within(double).getByRole('button', { name: /^Activate/ }));
    await waitFor(() => expect(within(double).getByRole('status')).toHaveTextContent('Activated'));
    expect(events()).toEqual([{ name: 'offers_activate', params: { offer_id: 201 } }]);
  });

  it('rewards_redeem with the catalogue item and the points spent', async () => {
    reactNative();
    stub = backend({
      'POST /api/profile/rewards/redeem': {
        status: 201,
        body: {
          data: {
            reward: reward(105, {
              name: 'Free coffee',
              source: 'redemption',
              catalogue_id: 'coffee',
              points_cost: 300,
              code: 'NEW1-COFF-EE99',
            }),
            points_spent: 300,
            balance: 2749,
          },
        },
      },
    });
    await renderAt('/rewards');
    fireEvent.click(await screen.findByRole('button', { name: 'Redeem Free coffee' }));
    const dialog = screen.getByRole('dialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' })));
    await waitFor(() => expect(events()).toEqual([{ name: 'rewards_redeem', params: { catalogue_id: 'coffee', points: 300 } }]));
  });

  it('rewards_wallet_add names the wallet', async () => {
    reactNative();
    window.PortalNative = { actions: ['addGooglePay'] };
    stub = backend({ 'GET /api/profile/rewards/101': { body: { data: REWARDS[0] } } });
    await renderAt('/rewards/item/101');
    fireEvent.click(await screen.findByRole('button', { name: 'Add to Google Pay' }));
    expect(events()).toEqual([{ name: 'rewards_wallet_add', params: { wallet: 'google' } }]);
    expect(actions()).toEqual([{ action: 'addGooglePay', id: 101, code: 'K7QM-4TXA-9PWD' }]);
  });

  it('screen views carry the spec’s titles', async () => {
    stub = backend({ 'GET /api/profile/rewards/101': { body: { data: REWARDS[0] } } });
    const seen: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => seen.push(e));
    for (const path of ['/rewards', '/rewards/item/101', '/offers']) await renderAt(path);
    off();
    expect(seen.filter((e) => e.type === 'screen_view').map((e) => e.name)).toEqual(['Rewards', 'Rewards Item Detail', 'Offers']);
  });
});
