import { fireEvent, render, screen, within } from '@testing-library/react';
import { initI18n, languageReady, onAnalytics } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { Root } from '../Root';
import { queryClient } from '../providers';

const PROFILE = {
  id: 'p_demo',
  email: 'demo@example.com',
  first_name: 'Dana',
  last_name: 'Demo',
  region: { handle: 'au' },
  tier_handle: 'gold',
  identities: [
    { handle: 'email', identifier: 'demo@example.com' },
    { handle: 'qff_number', identifier: '1234567890' },
  ],
  custom_attributes: { locale: { language: 'en' }, size: { top: 'M', shoe: '9' } },
  attributes: { comms: { email: true, sms: false, push: true, post: false } },
};

let stub: FetchStub;

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<Root />);
}

beforeEach(() => {
  initI18n('?lang=en');
  stub = stubFetch({ 'GET /api/profile': { body: PROFILE }, 'GET /api/profile/access-log': { body: { data: [] } } });
});
afterEach(() => {
  stub.restore();
  queryClient.clear();
});

describe('mfe-profile', () => {
  it('renders My Details from GET /api/profile', async () => {
    const views: string[] = [];
    const off = onAnalytics((e) => views.push(`${e.type}:${e.name}`));
    renderAt('/profile');
    expect(screen.getByRole('heading', { level: 1, name: 'My Details' })).toBeInTheDocument();
    expect(await screen.findByText('Dana Demo')).toBeInTheDocument();
    expect(screen.getAllByText('demo@example.com').length).toBeGreaterThan(0);
    expect(screen.getByText('Gold')).toBeInTheDocument();
    expect(screen.getByText('AU')).toBeInTheDocument();
    expect(screen.getByText('English')).toBeInTheDocument();
    expect(screen.getByText('Qantas Frequent Flyer')).toBeInTheDocument();
    expect(screen.getByText('1234567890')).toBeInTheDocument();
    expect(views).toContain('screen_view:My Details');
    off();
  });

  it('shows a friendly error when the profile cannot be loaded', async () => {
    stub.restore();
    stub = stubFetch({
      'GET /api/profile': { status: 404, body: { status: 404, message: 'x', errors: {}, error: true } },
      'GET /api/profile/access-log': { body: { data: [] } },
    });
    renderAt('/profile');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows messaging preferences read-only', async () => {
    renderAt('/messaging');
    expect(screen.getByRole('heading', { level: 1, name: 'Messaging Preferences' })).toBeInTheDocument();
    expect(await screen.findByText('Push notifications')).toBeInTheDocument();
    expect(screen.getAllByText('Subscribed')).toHaveLength(2);
    expect(screen.getAllByText('Not subscribed')).toHaveLength(2);
  });

  it('shows size attributes', async () => {
    renderAt('/size');
    expect(screen.getByRole('heading', { level: 1, name: 'My Size' })).toBeInTheDocument();
    expect(await screen.findByText('shoe')).toBeInTheDocument();
    expect(screen.getByText('9')).toBeInTheDocument();
  });

  it('switches the language live from /preference, Arabic right-to-left (its strings fetched on demand)', async () => {
    renderAt('/preference');
    fireEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    expect(document.documentElement.dir).toBe('rtl');
    expect(await screen.findByRole('heading', { level: 1, name: 'التفضيلات' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'English' }));
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('lists staff access to the account, newest first, in the tenant time zone', async () => {
    stub.restore();
    stub = stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/profile/access-log': {
        body: {
          data: [
            { action: 'attempt', staff_id: 's_1', staff_name: 'Sam Staff', reason: 'Phone call', at: '2026-11-02T03:20:00Z' },
            { action: 'start', staff_id: 's_1', staff_name: 'Sam Staff', reason: null, at: '2026-11-02T03:15:00Z' },
          ],
        },
      },
    });
    renderAt('/profile');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Staff access' })).closest('section')!;
    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Tried to make a change (blocked)');
    expect(within(items[0]).getByText('Sam Staff').tagName).toBe('BDI');
    expect(within(items[0]).getByText('Phone call')).toBeInTheDocument();
    // 03:20 UTC is 2:20 pm in Melbourne (daylight saving).
    expect(within(items[0]).getByText('2 Nov 2026, 2:20 pm')).toHaveAttribute('dateTime', '2026-11-02T03:20:00Z');
    expect(items[1]).toHaveTextContent('Started viewing your account');
    expect(within(items[1]).getByText('No reason given')).toBeInTheDocument();
    expect(stub.calls.some((c) => c.path === '/api/profile/access-log')).toBe(true);
  });

  it('says so when no staff member has viewed the account', async () => {
    renderAt('/profile');
    expect(await screen.findByText('No staff member has viewed your account.')).toBeInTheDocument();
  });

  it('isolates data values with <bdi> in Arabic', async () => {
    initI18n('?lang=ar');
    await languageReady();
    renderAt('/profile');
    const name = await screen.findByText('Dana Demo');
    expect(name.tagName).toBe('BDI');
    expect(screen.getAllByText('demo@example.com').every((el) => el.tagName === 'BDI')).toBe(true);
    expect(document.documentElement.dir).toBe('rtl');
  });
});
