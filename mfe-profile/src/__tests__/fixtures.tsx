// Shared by this MFE's tests: the contract's profile body, tenant config and a signed-in member.
import { type Country, type PortalConfig, type Profile } from '@portal/runtime';
import { countriesStore } from '@portal/runtime/countries';
import { stubFetch, type FetchStub, type StubResponse, type StubRoute } from '@portal/kit/fetch-stub';
import { errorAnswer, renderRoot, resetScreens, signIn as signInAs, toasts } from '@portal/kit/screen-testing';
import { Root } from '../Root';
import { queryClient } from '../providers';
import { resetRestored } from '../persist';

export const PROFILE: Profile = {
  id: 'p_demo',
  memberNumber: '1234567890',
  email: 'demo@example.com',
  first_name: 'Dana',
  last_name: 'Demo',
  phone: '+61400000001',
  birth_date: '1990-05-14',
  address: { line1: '1 Swanston St', line2: '', city: 'Melbourne', state: 'VIC', postcode: '3000', country: 'AU' },
  region: { handle: 'au' },
  tier_handle: 'gold',
  identities: [
    { handle: 'email', identifier: 'demo@example.com' },
    { handle: 'qff_number', identifier: '1900123456' },
  ],
  custom_attributes: {
    locale: { language: 'en' },
    size: { shoes: '{"system":"AU","size":"9","fit":"standard"}' },
    preference: { store: 'melbourne-central' },
  },
  attributes: { comms: { email: true, sms: false, push: true, post: false, offers: true, news: false, events: false } },
};

export const CONFIG = {
  general: { tenant: 'demo', timeZone: 'Australia/Melbourne' },
  components: {
    qantas: { redemption: { type: 'points', blockSize: 1000, airlinePointsPerBlock: 500 } },
    profile: {
      identities: ['loyalty_card', 'phone'],
      comms: { channels: ['email', 'sms', 'push', 'post'], topics: ['offers', 'news', 'events'] },
      sizes: {
        tops: {
          systems: { AU: ['6', '8', '10', '12'], US: ['2', '4', '6', '8'], EU: ['34', '36', '38', '40'] },
          fits: ['slim', 'regular', 'relaxed'],
          convertible: false,
        },
        shoes: {
          systems: { AU: ['8', '8.5', '9', '9.5'], US: ['9', '9.5', '10', '10.5'], EU: ['41', '42', '42.5', '43'] },
          fits: ['narrow', 'standard', 'wide'],
          convertible: true,
        },
      },
    },
  },
  lastUpdated: 1,
} as unknown as PortalConfig;

export const COUNTRIES: Country[] = [
  {
    iso_2: 'AU',
    iso_3: 'AUS',
    name: 'Australia',
    states: [
      { iso_2_country_state_code: 'AU-NSW', iso: 'NSW', name: 'New South Wales' },
      { iso_2_country_state_code: 'AU-VIC', iso: 'VIC', name: 'Victoria' },
    ],
  },
  { iso_2: 'NZ', iso_3: 'NZL', name: 'New Zealand', states: [] },
];

/** The routes every screen reads; a test adds or replaces what it exercises. */
export function backend(routes: Record<string, StubRoute> = {}): FetchStub {
  return stubFetch({
    'GET /api/profile': { body: PROFILE },
    'GET /api/profile/tiers': { body: { data: [{ handle: 'gold', name: 'Gold Member' }] } },
    'GET /api/profile/access-log': { body: { data: [] } },
    'GET /api/profile/attributes/comms/history': { body: { data: [] } },
    'GET /api/countries/age': { body: { age: 1 } },
    'GET /api/countries': { body: { countries: COUNTRIES } },
    'GET /api/geolocation': {
      body: {
        latitude: null,
        longitude: null,
        locations: [
          { id: 1, handle: 'chadstone', name: 'Chadstone', latitude: -37.88, longitude: 145.08, distance: null },
          { id: 2, handle: 'melbourne-central', name: 'Melbourne Central', latitude: -37.81, longitude: 144.96, distance: null },
        ],
      },
    },
    ...routes,
  });
}

/** A PUT that answers 200 with the profile changed by `apply`, as every profile write does. */
export const answersWith =
  (apply: (p: Profile, body: Record<string, unknown>) => Profile): StubRoute =>
  (req) => ({
    body: apply(JSON.parse(JSON.stringify(PROFILE)) as Profile, req.body as Record<string, unknown>),
  });

export const refused = (errors: Record<string, string>, status = 422): StubResponse =>
  errorAnswer(status, 'Please check the highlighted fields', errors);

export function signIn(profileId = 'p_demo') {
  signInAs({ profile_id: profileId, token: `token-${profileId}` });
}

export function resetAll() {
  resetScreens(queryClient, CONFIG);
  resetRestored();
  // Unsaved edits kept in this tab (kept-draft.ts) belong to the test that left them.
  sessionStorage.clear();
  // The countries loader itself is tested in the runtime and in countries-lazy.test.tsx.
  countriesStore.set({ countries: COUNTRIES, loaded: true });
}

/** Renders this MFE at `path`. */
export const renderAt = (path: string) => renderRoot(Root, path);

export { toasts };
