import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { activityStore, configStore, initAuth, setLanguage, type PortalConfig } from '@portal/runtime';
import { makeToken, stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { locationKey } from '../features/stores/components/LocationPage';
import { eventKey } from '../features/stores/components/EventPage';
import { visitKindFor } from '../mfe/visit-routes';
// eslint-disable-next-line import-x/no-relative-packages -- the demo tenant's configuration (config/, the repository's data the server reads), not another package's code
import tenant from '../../../../config/tenant.json';

const now = () => Math.floor(Date.now() / 1000);
const WEEK = {
  mon: [['10:00', '19:00']],
  tue: [['10:00', '19:00']],
  wed: [['10:00', '19:00']],
  thu: [['10:00', '21:00']],
  fri: [['10:00', '21:00']],
  sat: [['10:00', '19:00']],
  sun: [['10:00', '19:00']],
};
const store = (id: number, handle: string, name: string, distance: number | null, extra: object = {}) => ({
  id,
  handle,
  name,
  external_code: `S${id}`,
  external_id: String(1000 + id),
  latitude: -37.8,
  longitude: 144.9,
  distance,
  address: `${id} Example Street\nMelbourne VIC 3000`,
  phone: '+61 3 5550 1001',
  time_zone: 'Australia/Melbourne',
  hours: WEEK,
  ...extra,
});
const STORES = [
  store(2, 'chadstone', 'Chadstone', 1_200),
  store(1, 'melbourne-central', 'Melbourne Central', 13_534),
  store(5, 'perth-hay-street', 'Hay Street Mall, Perth', 2_700_000, { time_zone: 'Australia/Perth' }),
  store(3, 'sydney-pitt-street', 'Pitt Street Mall, Sydney', 713_000, { time_zone: 'Australia/Sydney' }),
];
const ME = { latitude: -37.88, longitude: 145.08, source: 'ip', credit: { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com' } };

let stub: FetchStub | undefined;

function backend(routes: Record<string, StubRoute> = {}) {
  stub = stubFetch({
    'GET /api/geolocation/me': { body: ME },
    'GET /api/geolocation': { body: { latitude: ME.latitude, longitude: ME.longitude, locations: STORES } },
    ...routes,
  });
  return stub;
}

beforeEach(() => {
  localStorage.clear();
  initAuth();
  activityStore.set({ activity: null });
  configStore.set({ config: tenant as unknown as PortalConfig, loaded: true });
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
});

describe('which screen an address opens', () => {
  it('reads the store from /loc/{handle}, ?location=, ?handle= or ?location_id=, and the event from /event/{m} or ?mode=event&m=', () => {
    expect(visitKindFor('/loc/chadstone', '')).toBe('location');
    expect(visitKindFor('/', '?location=chadstone')).toBe('location');
    expect(visitKindFor('/', '?location_id=2')).toBe('location');
    expect(visitKindFor('/event/spring-launch', '')).toBe('event');
    expect(visitKindFor('/', '?mode=event&m=spring-launch')).toBe('event');
    expect(visitKindFor('/', '?redirect=%2Fhome')).toBeNull();
    expect(locationKey('/loc/Chadstone', '')).toEqual({ handle: 'Chadstone', id: null });
    expect(locationKey('/', '?handle=chadstone')).toEqual({ handle: 'chadstone', id: null });
    expect(locationKey('/', '?location=2')).toEqual({ handle: null, id: '2' });
    expect(locationKey('/loc', '?location_id=5')).toEqual({ handle: null, id: '5' });
    expect(eventKey('/event/spring-launch', '')).toBe('spring-launch');
    expect(eventKey('/', '?mode=event&m=spring-launch')).toBe('spring-launch');
    expect(eventKey('/', '?m=spring-launch')).toBeNull();
  });
});

describe('the location page', () => {
  it('shows the store: address, phone, hours with today marked, open now, distance with the IP credit, directions', async () => {
    backend();
    renderAt('/loc/melbourne-central');
    expect(await screen.findByRole('heading', { level: 1, name: 'Melbourne Central' })).toBeInTheDocument();
    expect(screen.getByText(/1 Example Street/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+61 3 5550 1001' })).toHaveAttribute('href', 'tel:+61355501001');
    expect(screen.getByText('14 km away')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'IP Geolocation by DB-IP' })).toHaveAttribute('href', 'https://db-ip.com');
    expect(screen.getByRole('link', { name: 'Get directions' }).getAttribute('href')).toMatch(
      /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/,
    );
    const table = screen.getByRole('table', { name: 'Opening hours' });
    expect(within(table).getAllByRole('row')).toHaveLength(7);
    expect(table.querySelectorAll('[aria-current="date"]')).toHaveLength(1);
    expect(screen.getByText('Times are local to the store (Australian Eastern Time).')).toBeInTheDocument();
    expect(screen.getByText(/^(Open now · closes|Closed · opens)/)).toBeInTheDocument();
    // The distances were asked for from the IP position, rounded.
    expect(stub!.calls.map((c) => c.url)).toContain('/api/geolocation?latitude=-37.88&longitude=145.08');
  });

  it('checks in by signing in with the store and mode visit, and says so once signed in', async () => {
    backend({
      'POST /api/auth/email': { body: { message: 'sent' } },
      'POST /api/auth/verify': {
        body: {
          token: makeToken({ pid: 'p_demo', exp: now() + 3600, typ: 'session' }),
          expiry: now() + 3600,
          profile_id: 'p_demo',
          redirect: '/loc/chadstone',
          activity: { kind: 'visit', key: 'chadstone', name: 'Chadstone', recorded: true },
        },
      },
      'POST /api/auth': { body: { message: 'sent' } },
    });
    renderAt('/?location=chadstone');
    await screen.findByRole('heading', { level: 1, name: 'Chadstone' });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a check-in link' })));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(stub!.calls.find((c) => c.path === '/api/auth')?.body).toEqual({
      email: 'demo@example.com',
      redirect: '/loc/chadstone',
      mode: 'visit',
      location: 'chadstone',
    });
    // Again, with a code typed on this device.
    fireEvent.click(screen.getByRole('button', { name: 'Use a different email address' }));
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a code instead' })));
    expect(stub!.calls.find((c) => c.path === '/api/auth/email')?.body).toEqual({
      email: 'demo@example.com',
      redirect: '/loc/chadstone',
      mode: 'visit',
      location: 'chadstone',
    });
    fireEvent.change(await screen.findByLabelText('6-digit code'), { target: { value: '123456' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Confirm' })));
    expect(await screen.findByRole('heading', { name: 'Checked in at Chadstone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Email me a check-in link' })).not.toBeInTheDocument();
  });

  it('checks a signed-in member in with one tap, no email to confirm', async () => {
    backend({ 'POST /api/activity/visit': { body: { kind: 'visit', key: 'chadstone', name: 'Chadstone', recorded: true } } });
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() + 600 }));
    initAuth();
    renderAt('/loc/chadstone');
    await screen.findByRole('heading', { level: 1, name: 'Chadstone' });
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Check in here' })));
    expect(await screen.findByRole('heading', { name: 'Checked in at Chadstone' })).toBeInTheDocument();
    expect(stub!.calls.find((c) => c.path === '/api/activity/visit')?.body).toEqual({ location: 'chadstone' });
    expect(stub!.calls.some((c) => c.path === '/api/auth')).toBe(false);
  });

  it('says when the visit was already recorded today', async () => {
    backend();
    activityStore.set({ activity: { kind: 'visit', key: 'chadstone', name: 'Chadstone', recorded: false } });
    renderAt('/loc/chadstone');
    expect(await screen.findByRole('heading', { name: "You've already checked in at Chadstone today" })).toBeInTheDocument();
  });

  it('shows a clear not-found page, with every store, for an unknown handle', async () => {
    backend();
    renderAt('/loc/atlantis');
    expect(await screen.findByRole('heading', { level: 1, name: "We couldn't find this store" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Chadstone' })).toHaveAttribute('href', '/loc/chadstone');
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
  });

  it('is in Arabic with the page language', async () => {
    backend();
    renderAt('/loc/chadstone');
    expect(await screen.findByRole('heading', { level: 1, name: 'Chadstone' })).toBeInTheDocument();
    await act(async () => {
      setLanguage('ar');
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'ساعات العمل' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /الخميس/ })).toBeInTheDocument();
    expect(screen.getByText(/^على بُعد .+ كم$/)).toBeInTheDocument();
    await act(async () => {
      setLanguage('en');
    });
  });
});

describe('event mode', () => {
  it('shows the event and the fields its configuration asks for, checked before sending', async () => {
    backend({ 'POST /api/auth': { body: { message: 'sent' } } });
    renderAt('/event/spring-launch');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring collection launch' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Melbourne Central' })).toHaveAttribute('href', '/loc/melbourne-central');
    const guests = screen.getByLabelText('Guests, including you') as HTMLSelectElement;
    expect(Array.from(guests.options).map((o) => o.value)).toEqual(['', '1', '2', '3', '4']);
    expect(screen.getByLabelText('Your birthday, for a birthday treat (optional)')).toHaveAttribute('type', 'date');
    expect(screen.getByLabelText('Bring a friend: their email (optional)')).toHaveAttribute('type', 'email');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a link to confirm' })));
    // Required: guests and the checkbox; nothing sent.
    expect(guests).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('I agree to be photographed at the event')).toHaveAccessibleDescription('Required');
    expect(stub!.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(guests, { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Dietary requirements (optional)'), { target: { value: ' vegan ' } });
    fireEvent.click(screen.getByLabelText('I agree to be photographed at the event'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a link to confirm' })));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(stub!.calls.find((c) => c.path === '/api/auth')?.body).toEqual({
      email: 'demo@example.com',
      redirect: '/event/spring-launch',
      mode: 'event',
      eventData: { m: 'spring-launch' },
      customFields: { guests: '2', dietary: 'vegan', terms: true },
    });
  });

  it("puts the server's field errors on the fields", async () => {
    backend({
      'POST /api/auth': {
        status: 422,
        body: {
          status: 422,
          message: 'Please check the highlighted fields',
          error: true,
          errors: { 'customFields.friend_email': 'Enter a valid email address' },
        },
      },
    });
    renderAt('/?mode=event&m=spring-launch');
    await screen.findByRole('heading', { level: 1, name: 'Spring collection launch' });
    fireEvent.change(screen.getByLabelText('Guests, including you'), { target: { value: '1' } });
    fireEvent.click(screen.getByLabelText('I agree to be photographed at the event'));
    fireEvent.change(screen.getByLabelText('Bring a friend: their email (optional)'), { target: { value: 'x@y' } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email me a link to confirm' })));
    await waitFor(() =>
      expect(screen.getByLabelText('Bring a friend: their email (optional)')).toHaveAccessibleDescription('Enter a valid email address'),
    );
    expect(screen.getByText('Please check the highlighted fields.')).toBeInTheDocument();
  });

  it('shows a finished event and an unknown one clearly, without a form', async () => {
    backend();
    renderAt('/event/winter-sale-2025');
    expect(await screen.findByRole('heading', { level: 1, name: 'This event has finished' })).toBeInTheDocument();
    expect(screen.getByText(/Sign-ups for Winter sale preview 2025 are closed/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
  });

  it('says when there is no such event', async () => {
    backend();
    renderAt('/event/no-such-thing');
    expect(await screen.findByRole('heading', { level: 1, name: "We couldn't find this event" })).toBeInTheDocument();
  });

  it('shows a signed-in member their sign-up, with their answers, instead of an empty form', async () => {
    backend({
      'GET /api/activity/event/spring-launch': { body: { signed_up: true, custom_fields: { guests: '2', dietary: 'vegan' }, at: 1 } },
    });
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() + 600 }));
    initAuth();
    renderAt('/event/spring-launch');
    expect(await screen.findByRole('heading', { name: "You're signed up for Spring collection launch" })).toBeInTheDocument();
    expect(screen.getByText('Guests, including you')).toBeInTheDocument();
    expect(screen.getByText('vegan')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
  });

  it('confirms a sign-up brought by the link', async () => {
    backend();
    activityStore.set({ activity: { kind: 'event', key: 'spring-launch', name: 'Spring collection launch', recorded: true } });
    renderAt('/event/spring-launch');
    expect(await screen.findByRole('heading', { name: "You're signed up for Spring collection launch" })).toBeInTheDocument();
  });
});

describe('stores near you on Home', () => {
  it('waits until its spot is scrolled to, after the first screen, before asking anything', async () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() + 600 }));
    initAuth();
    let seen: (() => void) | null = null;
    const observed: Element[] = [];
    class FakeObserver {
      constructor(cb: (entries: Array<{ isIntersecting: boolean }>) => void) {
        seen = () => cb([{ isIntersecting: true }]);
      }
      observe(el: Element) {
        observed.push(el);
      }
      disconnect() {}
    }
    (window as unknown as { IntersectionObserver?: unknown }).IntersectionObserver = FakeObserver;
    try {
      backend({ 'GET /api/profile': { body: { id: 'p_demo', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo' } } });
      renderAt('/home');
      await screen.findByRole('heading', { name: 'Hello, Dana' });
      await act(() => new Promise((r) => setTimeout(r, 300)));
      expect(observed).toHaveLength(1);
      expect(screen.queryByRole('region', { name: 'Stores near you' })).toBeNull();
      expect(stub!.calls.some((c) => c.path.startsWith('/api/geolocation'))).toBe(false);
      act(() => seen!());
      expect(await screen.findByRole('region', { name: 'Stores near you' })).toBeInTheDocument();
      await waitFor(() => expect(stub!.calls.some((c) => c.path === '/api/geolocation')).toBe(true));
    } finally {
      delete (window as unknown as { IntersectionObserver?: unknown }).IntersectionObserver;
    }
  });

  it('lists the three nearest with distance and opening, and offers the precise location', async () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() + 600 }));
    initAuth();
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: { getCurrentPosition: jest.fn() } });
    backend({ 'GET /api/profile': { body: { id: 'p_demo', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo' } } });
    renderAt('/home');
    const card = await screen.findByRole('region', { name: 'Stores near you' });
    await waitFor(() => expect(within(card).getAllByRole('listitem')).toHaveLength(3));
    const names = within(card)
      .getAllByRole('link')
      .filter((a) => a.getAttribute('href')?.startsWith('/loc/'))
      .map((a) => a.textContent);
    expect(names).toEqual(['Chadstone', 'Melbourne Central', 'Hay Street Mall, Perth']);
    expect(within(card).getByText('1.2 km away')).toBeInTheDocument();
    expect(within(card).getByText(/approximate location/)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Use my precise location' })).toBeInTheDocument();
    delete (navigator as unknown as { geolocation?: unknown }).geolocation;
  });
});
