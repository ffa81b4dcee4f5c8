// The privacy centre's tests share this stand-in for its REST routes: the member's signed-in
// devices and the staff viewing the account (state tests change between steps), the routes that
// read and change them, and opening /profile/privacy.
import { screen, within } from '@testing-library/react';
import { authStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { errorAnswer } from '@portal/kit/screen-testing';
import { removeNativeWrappers } from '@portal/kit/native-testing';
import type { PrivacyDevice, PrivacySession, StaffView } from '../features/privacy/api/privacy';
import { backend, renderAt, resetAll } from './fixtures';

export const HERE: PrivacySession = {
  id: 'ses_here',
  current: true,
  signed_in_at: '2026-11-22T23:30:00Z',
  last_seen_at: '2026-11-23T01:05:00Z',
  expires_at: '2026-12-22T23:30:00Z',
  browser: 'Chrome 131',
  os: 'Windows 11',
  device: 'desktop',
  place: 'Melbourne, Australia',
  ip: '203.0.113.0',
};
export const PHONE: PrivacySession = {
  id: 'ses_phone',
  current: false,
  signed_in_at: '2026-11-23T09:00:00Z',
  last_seen_at: null,
  expires_at: '2026-12-23T09:00:00Z',
  browser: 'Safari 18',
  os: 'iOS 18',
  device: 'mobile',
  place: null,
  ip: '198.51.100.0',
};
export const OLD: PrivacySession = {
  id: 'ses_old',
  current: false,
  signed_in_at: '2026-10-01T01:00:00Z',
  last_seen_at: null,
  expires_at: '2026-10-31T01:00:00Z',
  browser: null,
  os: null,
  device: null,
  place: null,
  ip: null,
};

export const SAM: StaffView = {
  id: 'stv_sam',
  staff_name: 'Sam Staff',
  started_at: '2026-11-23T01:00:00Z',
  last_seen_at: '2026-11-23T01:20:00Z',
  expires_at: '2026-11-23T02:00:00Z',
};
export const KIM: StaffView = {
  id: 'stv_kim',
  staff_name: 'Kim Support',
  started_at: '2026-11-23T01:10:00Z',
  last_seen_at: null,
  expires_at: '2026-11-23T02:10:00Z',
};

/** What the stand-in server holds now; each test starts from startPrivacyServer(). */
export const server = {
  stub: undefined as unknown as FetchStub,
  /** The server's sessions: DELETE and revoke-others change them, GET lists them (newest first). */
  live: [] as PrivacySession[],
  /** Staff viewing the account now: DELETE ends one. */
  views: [] as StaffView[],
  /** What the page posted to the native app (installReactNative). */
  posted: [] as Record<string, unknown>[],
};

const deviceOf = (s: PrivacySession) => `${s.browser}|${s.os}|${s.device}`;

/** The server's grouping: one device per browser, system and kind; this one first, then by last use. */
export function devicesOf(sessions: PrivacySession[]): PrivacyDevice[] {
  const groups = new Map<string, PrivacySession[]>();
  for (const s of sessions) groups.set(deviceOf(s), [...(groups.get(deviceOf(s)) ?? []), s]);
  const seen = (d: PrivacyDevice) => (d.last_seen_at ? Date.parse(d.last_seen_at) : 0);
  return [...groups.values()]
    .map(([newest, ...rest]) => ({
      key: `dev_${newest.id}`,
      current: [newest, ...rest].some((s) => s.current),
      sign_ins: rest.length + 1,
      signed_in_at: newest.signed_in_at,
      last_seen_at:
        [newest, ...rest]
          .map((s) => s.last_seen_at)
          .filter(Boolean)
          .sort()
          .pop() ?? null,
      browser: newest.browser,
      os: newest.os,
      device: newest.device,
      place: newest.place,
      session_ids: [newest, ...rest].map((s) => s.id),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || seen(b) - seen(a));
}

/** The privacy routes as the gateway answers them, over the profile routes every page reads. */
export function privacyBackend(routes: Parameters<typeof backend>[0] = {}) {
  return backend({
    'GET /api/privacy/sessions': () => ({
      body: { sessions: server.live, devices: devicesOf(server.live), staff_views: server.views },
    }),
    'POST /api/privacy/sessions/revoke-others': () => {
      const revoked = server.live.filter((s) => !s.current).length;
      server.live = server.live.filter((s) => s.current);
      return { body: { revoked } };
    },
    'POST /api/auth/logout': { status: 204 },
    'POST /api/privacy/delete/code': { body: { sent: true, email: 'd***@example.com' } },
    ...Object.fromEntries(
      [SAM, KIM].map((v) => [
        `DELETE /api/privacy/sessions/${v.id}`,
        () => {
          const known = server.views.some((x) => x.id === v.id);
          server.views = server.views.filter((x) => x.id !== v.id);
          return known ? { status: 204 } : errorAnswer(404, 'Not found');
        },
      ]),
    ),
    ...Object.fromEntries(
      server.live.map((s) => [
        `DELETE /api/privacy/devices/dev_${s.id}`,
        () => {
          const gone = server.live.filter((x) => deviceOf(x) === deviceOf(s));
          server.live = server.live.filter((x) => deviceOf(x) !== deviceOf(s));
          return gone.length ? { body: { revoked: gone.length } } : errorAnswer(404, 'Not found');
        },
      ]),
    ),
    ...Object.fromEntries(
      server.live.map((s) => [
        `DELETE /api/privacy/sessions/${s.id}`,
        () => {
          const known = server.live.some((x) => x.id === s.id);
          server.live = server.live.filter((x) => x.id !== s.id);
          return known ? { status: 204 } : errorAnswer(404, 'Not found');
        },
      ]),
    ),
    ...routes,
  });
}

/** Before each test: three devices (this one among them), nobody viewing, the routes answering. */
export function startPrivacyServer() {
  resetAll();
  server.live = [PHONE, HERE, OLD];
  server.views = [];
  server.posted = [];
  server.stub = privacyBackend();
}

export function stopPrivacyServer() {
  server.stub.restore();
  removeNativeWrappers();
  authStore.set({ loggedOut: false });
}

export const calls = (method: string, prefix = '/api/privacy') =>
  server.stub.calls.filter((c) => c.method === method && c.path.startsWith(prefix));

export async function openPrivacy() {
  await renderAt('/profile/privacy');
  await screen.findByRole('heading', { level: 1, name: 'Privacy centre' });
  await screen.findByText('This device');
}

export const items = () => within(document.querySelector('ul.sessions') as HTMLElement).getAllByRole('listitem');
