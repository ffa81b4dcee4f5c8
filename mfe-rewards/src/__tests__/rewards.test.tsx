import { render, screen } from '@testing-library/react';
import { initI18n, onAnalytics } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { Root } from '../Root';
import { queryClient } from '../providers';

const ROUTES = {
  'GET /api/profile/rewards': {
    body: {
      data: [
        { id: 101, name: '$10 voucher', description: 'Ten dollars off your next shop', points_cost: 1000, issued_at: '2026-10-01T00:00:00Z', expires_at: '2026-12-31T00:00:00Z' },
        { id: 102, name: 'Free coffee', description: null, points_cost: 250, issued_at: null, expires_at: null },
      ],
    },
  },
  'GET /api/profile/balances': { body: { data: { points: 2450, currency: 'AUD' } } },
  'GET /api/profile/benefits': {
    body: { data: [{ id: 201, name: 'Double points weekend', description: 'Earn 2x points', ends_at: '2026-11-30T00:00:00Z' }] },
  },
};

let stub: FetchStub;
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<Root />);
}

beforeEach(() => {
  initI18n('?lang=en');
  stub = stubFetch(ROUTES);
});
afterEach(() => {
  stub.restore();
  queryClient.clear();
});

describe('mfe-rewards', () => {
  it('shows balance and rewards', async () => {
    renderAt('/rewards');
    expect(screen.getByRole('heading', { level: 1, name: 'Rewards' })).toBeInTheDocument();
    expect(await screen.findByText('2,450 points')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '$10 voucher' })).toHaveAttribute('href', '/rewards/item/101');
    expect(screen.getByText('1,000 points')).toBeInTheDocument();
    expect(screen.getByText('Expires 31 Dec 2026')).toBeInTheDocument();
  });

  it('shows one reward on /rewards/item/:id', async () => {
    const views: string[] = [];
    const off = onAnalytics((e) => views.push(e.name));
    renderAt('/rewards/item/101');
    expect(await screen.findByRole('heading', { level: 1, name: '$10 voucher' })).toBeInTheDocument();
    expect(screen.getByText('Ten dollars off your next shop')).toBeInTheDocument();
    expect(views).toContain('Rewards Item Detail');
    off();
  });

  it('says when a reward id is unknown', async () => {
    renderAt('/rewards/item/999');
    expect(await screen.findByRole('heading', { level: 1, name: "We couldn't find that reward" })).toBeInTheDocument();
  });

  it('lists offers from GET /api/profile/benefits', async () => {
    renderAt('/offers');
    expect(screen.getByRole('heading', { level: 1, name: 'Offers' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Double points weekend' })).toBeInTheDocument();
    expect(screen.getByText('Ends 30 Nov 2026')).toBeInTheDocument();
  });

  it('keeps "$10 voucher" in its own direction on an Arabic page', async () => {
    initI18n('?lang=ar');
    renderAt('/rewards');
    const name = await screen.findByText('$10 voucher');
    expect(name.tagName).toBe('BDI');
    expect(document.documentElement.dir).toBe('rtl');
  });
});
