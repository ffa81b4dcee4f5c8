// A signed-in member signs up to an event with one tap (POST /api/activity/event): the event's
// questions and one button, no email to confirm; the server's field problems land on the fields;
// a staff view of the account keeps the email path.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { activityStore, configStore, initAuth, type PortalConfig } from '@portal/runtime';
import { makeToken, stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
// eslint-disable-next-line import-x/no-relative-packages -- the demo tenant's configuration (config/, the repository's data the server reads), not another package's code
import tenant from '../../../../config/tenant.json';

const now = () => Math.floor(Date.now() / 1000);
let stub: FetchStub | undefined;

function signedIn(claims: Record<string, unknown> = {}, routes: Record<string, StubRoute> = {}) {
  stub = stubFetch({
    'GET /api/activity/event/spring-launch': { body: { signed_up: false, custom_fields: {}, at: 0 } },
    'GET /api/geolocation': { body: { latitude: null, longitude: null, locations: [] } },
    'GET /api/profile': { body: { id: 'p_demo', email: 'demo@example.com', first_name: 'Dana', last_name: 'Demo' } },
    ...routes,
  });
  localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() + 600, ...claims }));
  initAuth();
}

beforeEach(() => {
  localStorage.clear();
  activityStore.set({ activity: null });
  configStore.set({ config: tenant as unknown as PortalConfig, loaded: true });
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
});

const answer = () => {
  fireEvent.change(screen.getByLabelText('Guests, including you'), { target: { value: '2' } });
  fireEvent.click(screen.getByLabelText('I agree to be photographed at the event'));
};

describe('one-tap event sign-up', () => {
  it('asks the questions, then signs the member up at once', async () => {
    signedIn(
      {},
      {
        'POST /api/activity/event': { body: { kind: 'event', key: 'spring-launch', name: 'Spring collection launch', recorded: true } },
      },
    );
    renderAt('/event/spring-launch');
    await screen.findByRole('heading', { level: 1, name: 'Spring collection launch' });
    expect(screen.getByText("You're signed in, so one tap saves your place under your account.")).toBeInTheDocument();
    expect(screen.queryByLabelText('Email address')).toBeNull();
    // The required questions first; nothing sent.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign me up' })));
    expect(screen.getByLabelText('Guests, including you')).toHaveAccessibleDescription('Required');
    expect(stub!.calls.filter((c) => c.method === 'POST')).toEqual([]);

    answer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign me up' })));
    expect(await screen.findByRole('heading', { name: "You're signed up for Spring collection launch" })).toBeInTheDocument();
    const posts = stub!.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.path, c.body])).toEqual([
      ['/api/activity/event', { eventData: { m: 'spring-launch' }, customFields: { guests: '2', terms: true } }],
    ]);
  });

  it("puts the server's field problems on the fields", async () => {
    signedIn(
      {},
      {
        'POST /api/activity/event': {
          status: 422,
          body: {
            status: 422,
            message: 'Please check the highlighted fields',
            error: true,
            errors: { 'customFields.guests': 'Choose 1 to 4' },
          },
        },
      },
    );
    renderAt('/event/spring-launch');
    await screen.findByRole('heading', { level: 1, name: 'Spring collection launch' });
    answer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign me up' })));
    await waitFor(() => expect(screen.getByLabelText('Guests, including you')).toHaveAccessibleDescription('Choose 1 to 4'));
    expect(screen.getByText('Please check the highlighted fields.')).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('button', { name: 'Sign me up' })).toBeEnabled();
  });

  it('a staff view of the account keeps the email path', async () => {
    signedIn({ act: { sub: 'stf_1' } });
    renderAt('/event/spring-launch');
    await screen.findByRole('heading', { level: 1, name: 'Spring collection launch' });
    expect(screen.queryByRole('button', { name: 'Sign me up' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Email me a link to confirm' })).toBeInTheDocument();
  });
});
