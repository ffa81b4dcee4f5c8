// Inside a native wrapper: "Delete my account" (deleteMyAccount) only when the wrapper offers it,
// after a confirmation; and each screen's main action reported with the spec's prefixes, without
// personal data.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { onAnalytics, type AnalyticsEvent, type Profile } from '@portal/runtime';
import type { FetchStub } from '@portal/build/src/fetch-stub';
import { installReactNative, postedActions, postedEvents, removeNativeWrappers } from '@portal/build/src/native-testing';
import { PROFILE, answersWith, backend, renderAt, resetAll, signIn } from './fixtures';
import { authStore } from '@portal/runtime';

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

const actions = () => postedActions(posted);
const events = () => postedEvents(posted);

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

describe('Delete my account', () => {
  it('is not shown outside a native wrapper', async () => {
    await openDetails();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).not.toBeInTheDocument();
  });

  it('is not shown when the wrapper declares actions without deleteMyAccount', async () => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    window.PortalNative = { actions: ['gotoShop', 'gotoCart'] };
    await openDetails();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).not.toBeInTheDocument();
  });

  it('is not shown to staff viewing the account', async () => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    signIn();
    authStore.set({ ...authStore.get(), impersonating: true, staff: true });
    await openDetails();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).not.toBeInTheDocument();
  });

  it('asks first: Keep my account posts nothing; Continue posts deleteMyAccount to the app', async () => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    await openDetails();
    const open = screen.getByRole('button', { name: 'Delete my account' });
    expect(screen.getByRole('heading', { level: 2, name: 'Close your account' })).toBeInTheDocument();

    fireEvent.click(open);
    let dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toHaveAccessibleDescription(/take you through deleting your account/);
    expect(within(dialog).getByRole('button', { name: 'Keep my account' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(actions()).toEqual([]);

    fireEvent.click(open);
    dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(actions()).toEqual([{ action: 'deleteMyAccount' }]);
    expect(events()).toEqual([{ name: 'my_details_delete_account', params: {} }]);
    // Nothing deleted by the portal itself.
    expect(stub.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('works with the Android shape declaring it through getActions()', async () => {
    window.PortalAndroid = { postMessage: (m: string) => posted.push(JSON.parse(m)), getActions: () => '["deleteMyAccount"]' };
    await openDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Continue' }));
    expect(actions()).toEqual([{ action: 'deleteMyAccount' }]);
  });
});

describe('custom events', () => {
  beforeEach(() => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
  });

  it('my_details_save names the fields saved, never their values', async () => {
    stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
    await openDetails();
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Danielle' } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'dani@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Danielle Demo');
    expect(events()).toEqual([{ name: 'my_details_save', params: { fields: 'email,first_name' } }]);
    expect(JSON.stringify(posted)).not.toMatch(/Danielle|example\.com/);
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
      'PUT /api/profile/attributes/comms': answersWith((p, body) => ({ ...p, attributes: { comms: { ...PROFILE.attributes.comms, ...(body as Record<string, boolean>) } } })),
    });
    await renderAt('/messaging');
    fireEvent.click(await screen.findByRole('switch', { name: 'SMS' }));
    await waitFor(() => expect(events()).toEqual([{ name: 'messaging_preferences_save', params: { preference: 'sms', subscribed: true } }]));
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
    expect(seen.filter((e) => e.type === 'screen_view').map((e) => e.name)).toEqual(['My Details', 'My Size', 'Messaging Preferences', 'Preference']);
  });
});
