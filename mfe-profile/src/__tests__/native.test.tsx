// Inside a native wrapper: each screen's main action reported with the spec's prefixes, without
// personal data. (deleteMyAccount, posted once the server has deleted the account, is tested with
// the privacy centre in privacy.test.tsx.)
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Profile } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { postedEvents, removeNativeWrappers } from '@portal/kit/native-testing';
import { PROFILE, answersWith, backend, renderAt, resetAll } from './fixtures';

let stub: FetchStub;
let posted: Record<string, unknown>[];

beforeEach(() => {
  resetAll();
  stub = backend();
  posted = [];
});
afterEach(() => {
  stub.restore();
  removeNativeWrappers();
});

const events = () => postedEvents(posted);

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

describe('custom events', () => {
  beforeEach(() => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
  });

  it('my_details_save names the fields saved, never their values', async () => {
    stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
    await openDetails();
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Danielle' } });
    fireEvent.change(screen.getByLabelText('Mobile phone'), { target: { value: '+61400000077' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Danielle Demo');
    expect(events()).toEqual([{ name: 'my_details_save', params: { fields: 'first_name,phone' } }]);
    expect(JSON.stringify(posted)).not.toMatch(/Danielle|61400000077/);
  });

  it('my_size_save names the garment', async () => {
    stub = backend({
      'PUT /api/profile/attributes/custom/size:tops': answersWith((p, body) => ({
        ...p,
        custom_attributes: { ...p.custom_attributes, size: { ...p.custom_attributes.size, tops: String(body.value) } },
      })),
    });
    await renderAt('/size');
    const tops = (await screen.findByRole('heading', { level: 2, name: 'Tops' })).closest('form')!;
    fireEvent.change(within(tops).getByLabelText('Size'), { target: { value: '10' } });
    fireEvent.click(within(tops).getByRole('button', { name: 'Save Tops' }));
    await within(tops).findByText('Saved:', { exact: false });
    expect(events()).toEqual([{ name: 'my_size_save', params: { garment: 'tops', removed: false } }]);
  });

  it('messaging_preferences_save names the preference and its new state', async () => {
    stub = backend({
      'PUT /api/profile/attributes/comms': answersWith((p, body) => ({
        ...p,
        attributes: { comms: { ...PROFILE.attributes.comms, ...(body as Record<string, boolean>) } },
      })),
    });
    await renderAt('/messaging');
    fireEvent.click(await screen.findByRole('switch', { name: 'SMS' }));
    await waitFor(() =>
      expect(events()).toEqual([{ name: 'messaging_preferences_save', params: { preference: 'sms', subscribed: true } }]),
    );
  });

  it('screen views carry the spec’s titles', async () => {
    const seen: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => seen.push(e));
    for (const path of ['/profile', '/size', '/messaging', '/preference']) {
      // Each screen's chunk arrives inside act().
      await act(async () => {
        await renderAt(path);
      });
    }
    off();
    expect(seen.filter((e) => e.type === 'screen_view').map((e) => e.name)).toEqual([
      'My Details',
      'My Size',
      'Messaging Preferences',
      'Preference',
    ]);
  });
});
