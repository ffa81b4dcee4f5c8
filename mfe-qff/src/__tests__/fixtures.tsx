// Shared by this MFE's tests: the contract's bodies (issue 10), the tenant config, a signed-in member.
import { act, render } from '@testing-library/react';
import { type PortalConfig } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import { stubFetch, type FetchStub, type StubResponse, type StubRoute } from '@portal/kit/fetch-stub';
import { errorAnswer, resetScreens, signIn, toasts } from '@portal/kit/screen-testing';
import { Root, type QffView } from '../Root';
import { queryClient } from '../features/shared/hooks/use-qff';
import { clearQffStatusCache } from '../features/shared/hooks/use-cached-qff-status';
import type { QffLinked, QffNotLinked, QffRedemption } from '../features/shared/api/types';
import type { QffActivity } from '../features/account/api/types';
import type { Conversion } from '../features/convert/api/types';

export const CONFIG = {
  general: { tenant: 'demo', timeZone: 'Australia/Melbourne' },
  lastUpdated: 1,
} as unknown as PortalConfig;

export const REDEMPTION: QffRedemption = { type: 'points', block_size: 1000, airline_points_per_block: 500 };

export const NOT_LINKED: QffNotLinked = { linked: false, redemption: REDEMPTION };

export const LINKED: QffLinked = {
  linked: true,
  qff_number: '1900123456',
  last_name: 'Demo',
  linked_at: '2026-11-20T01:00:00Z',
  points: 48250,
  partner_error: null,
  redemption: REDEMPTION,
};

export const PARTNER_DOWN = "Qantas Frequent Flyer isn't answering right now. Nothing was changed; please try again in a few minutes.";

export const activity = (n: number, extra: Partial<QffActivity> = {}): QffActivity => ({
  id: `act_${n}`,
  date: `2026-11-${String(30 - n).padStart(2, '0')}`,
  description: `Points from My Store ${n}`,
  points: 100 * n,
  category: 'partner',
  ...extra,
});

/** Seven entries, newest first, as the demo airline account has. */
export const HISTORY = Array.from({ length: 7 }, (_, i) => activity(i + 1));

export const historyPage = (data: QffActivity[], total = data.length) => ({ data, meta: { page: 1, per_page: 20, total } });

export const conversion = (extra: Partial<Conversion> = {}): Conversion => ({
  id: 'cnv_1',
  status: 'completed',
  points: 2000,
  airline_points: 1000,
  blocks: 2,
  qff_number: '1900123456',
  created_at: '2026-11-21T02:00:00Z',
  settled_at: '2026-11-21T02:00:01Z',
  message: null,
  ...extra,
});

/** The routes every view reads; a test adds or replaces what it exercises. */
export function backend(routes: Record<string, StubRoute> = {}): FetchStub {
  return stubFetch({
    'GET /api/qff/points': { body: NOT_LINKED },
    'GET /api/profile/balances': { body: { data: { points: 3049, currency: 'AUD' } } },
    'GET /api/qff/history': { body: historyPage(HISTORY) },
    'GET /api/qff/conversions': { body: { data: [] } },
    ...routes,
  });
}

export const failure = errorAnswer;
export const partnerDown = (): StubResponse => errorAnswer(503, PARTNER_DOWN);

let events: AnalyticsEvent[] = [];
let stopListening: (() => void) | null = null;

/** Before each test: English, empty caches and no toasts, the config, signed in, events recorded. */
export function resetAll() {
  resetScreens(queryClient, CONFIG);
  clearQffStatusCache();
  events = [];
  stopListening?.();
  stopListening = onAnalytics((e) => events.push(e));
}

/** The custom analytics events sent so far (names). */
export const eventNames = () => events.filter((e) => e.type === 'event').map((e) => e.name);
export const eventsNamed = (name: string) => events.filter((e) => e.name === name);

/** Renders one view as the parcel would, at `path`, letting its lazily loaded chunk arrive. */
export async function renderView(view: QffView, path = '/rewards') {
  window.history.replaceState(null, '', path);
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(<Root view={view} />);
  });
  return result!;
}

export const callsTo = (stub: FetchStub, method: string, path: string) => stub.calls.filter((c) => c.method === method && c.path === path);

export { signIn, toasts };
