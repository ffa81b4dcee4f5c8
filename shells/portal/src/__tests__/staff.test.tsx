import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore, initAuth, toastStore } from '@portal/runtime';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';

const now = () => Math.floor(Date.now() / 1000);
const staffToken = makeToken({ pid: 's_1', exp: now() + 3600, typ: 'session', staff: true });
const memberToken = makeToken({ pid: 'p_demo', exp: now() + 1800, typ: 'session', act: { sub: 's_1', name: 'Sam Staff' } });
const DANA = { id: 'p_demo', email: 'demo@example.com', first_name: 'Dana', last_name: 'Demo' };

let stub: FetchStub;

beforeEach(() => {
  sessionStorage.clear();
  toastStore.set({ toasts: [] });
  localStorage.setItem('portal.auth', staffToken);
  initAuth();
});
afterEach(() => stub.restore());

async function searchForDana() {
  renderAt('/home');
  // The staff panel is its own chunk, loaded when a staff user opens /home.
  expect(await screen.findByRole('heading', { level: 1, name: 'Find a member' })).toBeInTheDocument();
  expect(screen.queryByRole('navigation', { name: 'Account sections' })).toBeNull();
  fireEvent.change(screen.getByLabelText('Search by'), { target: { value: 'email' } });
  fireEvent.change(screen.getByLabelText('Search for'), { target: { value: 'demo@example.com' } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  });
  return screen.findByRole('button', { name: 'View as member' });
}

describe('staff on /home', () => {
  it('lists the types to search by', async () => {
    stub = stubFetch({});
    renderAt('/home');
    const select = await screen.findByLabelText('Search by');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('value'), o.textContent]),
    ).toEqual([
      ['member_number', 'Member number'],
      ['name', 'Name'],
      ['email', 'Email'],
      ['phone', 'Phone'],
      ['qff_number', 'Frequent flyer number'],
      ['id', 'Member id'],
    ]);
    expect(stub.calls).toHaveLength(0);
  });

  it('searches by part of a member number, typed as printed on the card', async () => {
    stub = stubFetch({ 'POST /api/auth/searchById': { body: { data: [DANA] } } });
    renderAt('/home');
    fireEvent.change(await screen.findByLabelText('Search by'), { target: { value: 'member_number' } });
    const query = screen.getByLabelText('Search for');
    expect(query).toHaveAttribute('inputmode', 'numeric');
    fireEvent.change(query, { target: { value: ' 5678 90 ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    });
    expect(await screen.findByRole('button', { name: 'View as member' })).toBeInTheDocument();
    expect(stub.calls[0]).toMatchObject({ path: '/api/auth/searchById', body: { type: 'member_number', id: '5678 90' } });
  });

  it('searches, views a member with a reason, shows the banner and stops viewing', async () => {
    let release!: () => void;
    stub = stubFetch({
      'POST /api/auth/searchById': { body: { data: [DANA] } },
      'POST /api/auth/impersonate/p_demo': () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              body: {
                token: memberToken,
                expiry: now() + 1800,
                profile_id: 'p_demo',
                impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' },
              },
            });
        }),
      'GET /api/profile': { body: DANA },
      'POST /api/auth/logout': { status: 204 },
    });
    const view = await searchForDana();
    expect(stub.calls[0]).toMatchObject({ path: '/api/auth/searchById', body: { type: 'email', id: 'demo@example.com' } });
    expect(screen.getByText('demo@example.com').closest('bdi')).not.toBeNull();
    fireEvent.change(screen.getByLabelText('Reason (optional)'), { target: { value: 'Phone call' } });
    await act(async () => {
      fireEvent.click(view);
    });
    expect(authStore.get()).toMatchObject({ loading: true, impersonating: true });
    await act(async () => {
      release();
    });
    const banner = await screen.findByRole('region', { name: 'Staff view' });
    expect(banner).toHaveTextContent('Viewing as Dana Demo');
    expect(within(banner).getByText('Dana Demo').tagName).toBe('BDI');
    expect(stub.calls.find((c) => c.path === '/api/auth/impersonate/p_demo')?.body).toEqual({ staffId: 's_1', reason: 'Phone call' });
    expect(await screen.findByRole('heading', { name: 'Hello, Dana' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Account sections' })).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(within(banner).getByRole('button', { name: 'Stop viewing' }));
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Staff view' })).toBeNull());
    const logoutCall = stub.calls.find((c) => c.path === '/api/auth/logout');
    expect(logoutCall?.headers.Authorization).toBe(`Bearer ${memberToken}`);
    expect(authStore.get()).toMatchObject({ staff: true, impersonating: false, token: staffToken });
    expect(screen.getByRole('heading', { level: 1, name: 'Find a member' })).toBeInTheDocument();
  });

  it('reports an impersonation answer without a token and stays on the staff panel', async () => {
    stub = stubFetch({
      'POST /api/auth/searchById': { body: { data: [DANA] } },
      'POST /api/auth/impersonate/p_demo': { body: { profile_id: 'p_demo' } },
    });
    const view = await searchForDana();
    await act(async () => {
      fireEvent.click(view);
    });
    expect(toastStore.get().toasts[0]).toMatchObject({ type: 'error', text: 'Impersonation failed, no token received' });
    expect(authStore.get()).toMatchObject({ staff: true, impersonating: false, loading: false, token: staffToken });
    expect(screen.queryByRole('region', { name: 'Staff view' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Find a member' })).toBeInTheDocument();
  });

  it('says when nobody matches, and shows search errors inline', async () => {
    stub = stubFetch({ 'POST /api/auth/searchById': { body: { data: [] } } });
    renderAt('/home');
    await screen.findByRole('heading', { level: 1, name: 'Find a member' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Enter what to search for.');
    fireEvent.change(screen.getByLabelText('Search for'), { target: { value: 'nobody@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    });
    expect(await screen.findByText('No members found.')).toBeInTheDocument();
  });
});
