// The tenant's content in the member's language (issue 24): each text comes in its default
// language with the item's `translations`; the page shows the member's language, the default where
// a language or a field has none, and a switch of language redraws from the same answers (no
// fetch, so offline too).
import { act, screen, within } from '@testing-library/react';
import { languageReady, setLanguage, type Benefit, type CatalogueItem, type PointsEntry, type Reward } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { contentText } from '@portal/kit/content';
import { CATALOGUE, LEDGER, OFFERS, REWARDS, TIER_PROGRESS, backend, callsTo, pointsPage, renderAt, resetAll } from './fixtures';

const AR_COFFEE = 'قهوة مجانية';

const catalogue: CatalogueItem[] = CATALOGUE.map((c) =>
  c.id === 'coffee'
    ? {
        ...c,
        translations: {
          ar: { name: AR_COFFEE, description: 'أي حجم وأي حليب', terms: 'واحدة لكل زيارة.' },
          it: { name: 'Caffè omaggio' },
        },
      }
    : c,
);
// Reward 101 ($10 voucher) has Arabic; 104 (Free shipping) has none: its default shows.
const rewards: Reward[] = REWARDS.map((r) => (r.id === 101 ? { ...r, translations: { ar: { name: 'قسيمة بقيمة 10 $' } } } : r));
const offers: Benefit[] = OFFERS.map((o) =>
  o.id === 202
    ? { ...o, translations: { ar: { name: 'هدية عيد الميلاد', description: 'مفاجأة في شهر ميلادك' } } }
    : o.id === 201
      ? { ...o, banner_desktop: 'Activate now', banner_mobile: null, translations: { ar: { banner_desktop: 'فعّل العرض الآن' } } }
      : o,
);
const ledger: PointsEntry[] = LEDGER.map((e) => (e.id === 'led_3' ? { ...e, translations: { ar: { reason: AR_COFFEE } } } : e));
const progress = {
  ...TIER_PROGRESS,
  current: { ...TIER_PROGRESS.current, translations: { ar: { name: 'ذهبي' } } },
  next: { ...TIER_PROGRESS.next, translations: { ar: { name: 'بلاتيني' } } },
};

let stub: FetchStub;

beforeEach(async () => {
  resetAll();
  stub = backend({
    'GET /api/profile/rewards/catalogue': { body: { data: catalogue } },
    'GET /api/profile/rewards': { body: { data: rewards } },
    'GET /api/profile/benefits': { body: { data: offers } },
    'GET /api/profile/points': { body: pointsPage(ledger) },
    'GET /api/profile/tiers/progress': { body: { data: progress } },
  });
  setLanguage('ar');
  await act(() => languageReady());
});
afterEach(() => {
  stub.restore();
  setLanguage('en');
});

describe('contentText', () => {
  it('takes the language’s text, else the default, field by field', () => {
    const item = { name: 'Free coffee', description: 'Any size', translations: { ar: { name: AR_COFFEE } } };
    expect(contentText(item, 'name', 'ar')).toBe(AR_COFFEE);
    expect(contentText(item, 'description', 'ar')).toBe('Any size');
    expect(contentText(item, 'name', 'th')).toBe('Free coffee');
    expect(contentText({ name: 'Old copy' }, 'name', 'ar')).toBe('Old copy');
  });
});

describe('Rewards in Arabic', () => {
  it('names the catalogue, the rewards, the tier and the ledger in Arabic, and falls back to the default', async () => {
    await renderAt('/rewards');
    const coffee = (await screen.findByRole('heading', { level: 3, name: AR_COFFEE })).closest('li')!;
    expect(within(coffee).getByText('أي حجم وأي حليب')).toBeInTheDocument();
    expect(within(coffee).getByText('واحدة لكل زيارة.')).toBeInTheDocument();
    // No translation: the default text.
    expect(screen.getByRole('heading', { level: 3, name: 'Canvas tote bag' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'قسيمة بقيمة 10 $' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Free shipping' })).toBeInTheDocument();
    expect(await screen.findByText(/ذهبي/)).toBeInTheDocument();
    expect(screen.queryByText(/\bGold\b/)).toBeNull();
    expect(await screen.findByText(AR_COFFEE, { selector: '.ledger__what bdi, .ledger__what *' })).toBeInTheDocument();
  });

  it('redraws in the new language from the same answers, without fetching again', async () => {
    await renderAt('/rewards');
    await screen.findByRole('heading', { level: 3, name: AR_COFFEE });
    const fetched = callsTo(stub, 'GET', '/api/profile/rewards/catalogue').length;
    setLanguage('it');
    await act(() => languageReady());
    expect(await screen.findByRole('heading', { level: 3, name: 'Caffè omaggio' })).toBeInTheDocument();
    // Italian has no name for the $10 voucher: the default, never the Arabic of before.
    expect(screen.getByRole('link', { name: '$10 voucher' })).toBeInTheDocument();
    expect(screen.queryByText(AR_COFFEE)).toBeNull();
    expect(callsTo(stub, 'GET', '/api/profile/rewards/catalogue')).toHaveLength(fetched);
  });
});

describe('Offers in Arabic', () => {
  it('shows the offer’s Arabic name, description and banner, and the default where there is none', async () => {
    await renderAt('/offers');
    const birthday = await screen.findByRole('article', { name: 'هدية عيد الميلاد' });
    expect(within(birthday).getByText('مفاجأة في شهر ميلادك')).toBeInTheDocument();
    const double = screen.getByRole('article', { name: 'Double points, this weekend only' });
    expect(within(double).getByText('فعّل العرض الآن')).toBeInTheDocument();
    expect(within(double).queryByText('Activate now')).toBeNull();
  });
});
