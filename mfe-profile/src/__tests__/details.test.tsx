import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setParcelMounter, toastStore, type ParcelProps } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import { countriesStore } from '@portal/runtime/countries';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { CONFIG, PROFILE, answersWith, backend, refused, renderAt, resetAll, toasts } from './fixtures';
import type { Profile } from '@portal/runtime';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => stub.restore());

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const put = () => stub.calls.filter((c) => c.method === 'PUT');

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

describe('My Details', () => {
  it('shows the profile with the tier named by GET /api/profile/tiers, once as a screen view', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await openDetails();
    expect(screen.getByRole('heading', { level: 1, name: 'My Details' })).toBeInTheDocument();
    expect(screen.getByText('Dana Demo')).toBeInTheDocument();
    expect(await screen.findByText('Gold Member')).toBeInTheDocument();
    expect(field('First name').value).toBe('Dana');
    expect(field('Last name').value).toBe('Demo');
    // The sign-in address is shown, not a field to type over (it changes through its own dialog).
    const email = screen.getByRole('group', { name: 'Email address' });
    expect(email).toHaveTextContent('demo@example.com');
    expect(within(email).queryByRole('textbox')).toBeNull();
    expect(within(email).getByRole('button', { name: 'Change email' })).toHaveAccessibleDescription('demo@example.com');
    expect(field('Mobile phone').value).toBe('+61400000001');
    expect(field('Date of birth').value).toBe('1990-05-14');
    expect(field('Street address').value).toBe('1 Swanston St');
    expect(field('Country').value).toBe('AU');
    expect(field('State or region').value).toBe('VIC');
    expect(field('Postcode').value).toBe('3000');
    expect(events.filter((e) => e.type === 'screen_view').map((e) => e.name)).toEqual(['My Details']);
    off();
  });

  it('saves only what changed with PUT /api/profile and shows the answer', async () => {
    stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: '  Danielle ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByText('Danielle Demo')).toBeInTheDocument();
    expect(put().map((c) => [c.path, c.body])).toEqual([['/api/profile', { first_name: 'Danielle' }]]);
    expect(field('First name').value).toBe('Danielle');
    expect(toasts()).toContain('success: Your changes have been saved');
    expect(screen.getByRole('button', { name: 'Save changes' })).not.toHaveAttribute('aria-busy');
  });

  it('sends the whole address when part of it changed, the state picked from the chosen country', async () => {
    stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
    await openDetails();
    fireEvent.change(field('State or region'), { target: { value: 'NSW' } });
    fireEvent.change(field('City or suburb'), { target: { value: 'Sydney' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(put()).toHaveLength(1));
    expect(put()[0].body).toEqual({
      address: { line1: '1 Swanston St', line2: '', city: 'Sydney', state: 'NSW', postcode: '3000', country: 'AU' },
    });
  });

  it('shows the server’s field errors under their fields, announced, focuses the first and keeps what was typed', async () => {
    stub = backend({
      'PUT /api/profile': refused({ 'address.postcode': 'Postcode must be 4 digits', phone: 'Enter a valid phone number' }),
    });
    await openDetails();
    fireEvent.change(field('Mobile phone'), { target: { value: '0400 000 002' } });
    fireEvent.change(field('Postcode'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const phone = field('Mobile phone');
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription(/Enter a valid phone number$/);
    expect(field('Postcode')).toHaveAccessibleDescription('Postcode must be 4 digits');
    expect(field('First name')).not.toHaveAttribute('aria-invalid');
    // Announced: each message is an alert inside the live region the field points at.
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(
      expect.arrayContaining(['Enter a valid phone number', 'Postcode must be 4 digits']),
    );
    // The phone comes before the address in the form: it gets the focus.
    expect(document.activeElement).toBe(phone);
    expect(phone.value).toBe('0400 000 002');
    expect(field('Postcode').value).toBe('30');
    expect(screen.getByText('Dana Demo')).toBeInTheDocument();
    expect(toasts()).toEqual(['error: Please check the highlighted fields']);
    expect(put()[0].body).toEqual({
      phone: '+61400000002',
      address: { ...PROFILE.address, postcode: '30' },
    });
  });

  it('says a field error in the page language', async () => {
    const { setLanguage, languageReady } = await import('@portal/runtime');
    stub = backend({ 'PUT /api/profile': refused({ phone: 'Enter a valid phone number' }) });
    setLanguage('fr');
    await act(() => languageReady());
    await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'Informations personnelles' });
    fireEvent.change(screen.getByLabelText('Téléphone mobile'), { target: { value: '0400 000 002' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer les modifications' }));
    expect(await screen.findByText('Saisissez un numéro de téléphone valide')).toBeInTheDocument();
  });

  it('matches the stored country and state case-insensitively on code, iso_3 or name', async () => {
    stub = backend({
      'GET /api/profile': { body: { ...PROFILE, address: { ...PROFILE.address, country: 'aus', state: 'victoria' } } },
    });
    await openDetails();
    expect(field('Country').value).toBe('AU');
    expect((within(field('Country') as unknown as HTMLElement).getByRole('option', { selected: true }) as HTMLOptionElement).text).toBe(
      'Australia',
    );
    expect(field('State or region').value).toBe('VIC');
  });

  it('names the countries in the page language and sorts them for it', async () => {
    const { setLanguage, languageReady } = await import('@portal/runtime');
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'البيانات الشخصية' });
    const country = screen.getByLabelText('الدولة') as HTMLSelectElement;
    const selected = within(country as unknown as HTMLElement).getByRole('option', { selected: true }) as HTMLOptionElement;
    expect(selected.value).toBe('AU');
    expect(selected.text).toBe('أستراليا');
    const labels = Array.from(country.options)
      .slice(1)
      .map((o) => o.text);
    expect(labels).toEqual([...labels].sort(new Intl.Collator('ar').compare));
  });

  it('names the region, the country and the state, not their codes', async () => {
    await openDetails();
    const region = screen.getByText('Region').nextElementSibling as HTMLElement;
    expect(region).toHaveTextContent('Australia');
    expect(region).not.toHaveTextContent('AU');
    const shown = (name: string) => (within(screen.getByLabelText(name)).getByRole('option', { selected: true }) as HTMLOptionElement).text;
    expect(shown('Country')).toBe('Australia');
    expect(shown('State or region')).toBe('Victoria');
  });

  it('names the region in the page language (Arabic)', async () => {
    const { setLanguage, languageReady } = await import('@portal/runtime');
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'البيانات الشخصية' });
    const region = screen.getByText('المنطقة').nextElementSibling as HTMLElement;
    expect(region).toHaveTextContent('أستراليا');
  });

  it('asks for a typed state where the country has no subdivisions, and a typed country when the list is unavailable', async () => {
    await openDetails();
    fireEvent.change(field('Country'), { target: { value: 'NZ' } });
    expect(field('State or region').tagName).toBe('INPUT');
    act(() => countriesStore.set({ countries: null, loaded: true }));
    expect(field('Country').tagName).toBe('INPUT');
    expect(field('Country').value).toBe('NZ');
  });
});

describe('linked identities', () => {
  /** The shell's mounter, stood in for: records what is mounted, draws a line in its element. */
  function fakeQffParcel(outcome: () => Promise<void> = () => Promise.resolve()) {
    const calls: { remote: string; props: ParcelProps; unmount: jest.Mock }[] = [];
    setParcelMounter((remote, el, props) => {
      const unmount = jest.fn();
      calls.push({ remote, props, unmount });
      return { mounted: outcome().then(() => void (el.textContent = 'Frequent flyer identity')), update: jest.fn(), unmount };
    });
    return calls;
  }
  afterEach(() => act(() => setParcelMounter(null)));

  it('lists the email identity, edits the tenant’s handles, and leaves the frequent-flyer number to mfe-qff', async () => {
    const calls = fakeQffParcel();
    stub = backend({
      'PUT /api/profile': answersWith((p, body) => ({
        ...p,
        identities: [...p.identities.filter((i) => i.handle !== 'loyalty_card'), ...(body.identities as Profile['identities'])],
      })),
    });
    await openDetails();
    const section = screen.getByRole('heading', { level: 2, name: 'Linked identities' }).closest('section')!;
    expect(within(section).getByText('demo@example.com')).toBeInTheDocument();
    // The frequent-flyer number is mfe-qff's identity view (linked through the airline), not a text field.
    expect(within(section).queryByLabelText('Qantas Frequent Flyer')).toBeNull();
    expect(within(section).queryByText('1900123456')).toBeNull();
    expect(await within(section).findByText('Frequent flyer identity')).toBeInTheDocument();
    expect(calls.map(({ remote, props }) => [remote, props])).toEqual([['mfe_qff', { view: 'identity' }]]);

    fireEvent.change(within(section).getByLabelText('Loyalty card'), { target: { value: 'LC-42' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save linked numbers' }));
    await waitFor(() => expect(toasts()).toContain('success: Your changes have been saved'));
    expect(put()[0].body).toEqual({ identities: [{ handle: 'loyalty_card', identifier: 'LC-42' }] });
    // Saving re-renders the section; the parcel stays mounted.
    expect(calls).toHaveLength(1);
    expect(calls[0].unmount).not.toHaveBeenCalled();
  });

  it('removes one with an empty identifier', async () => {
    fakeQffParcel();
    const withCard = { ...PROFILE, identities: [...PROFILE.identities, { handle: 'loyalty_card', identifier: 'LC-7' }] };
    stub = backend({
      'GET /api/profile': { body: withCard },
      'PUT /api/profile': answersWith((p) => ({ ...p, identities: p.identities.filter((i) => i.handle !== 'loyalty_card') })),
    });
    await openDetails();
    expect(field('Loyalty card').value).toBe('LC-7');
    fireEvent.click(screen.getByRole('button', { name: 'Remove (Loyalty card)' }));
    await waitFor(() => expect(toasts()).toContain('success: Removed from your account'));
    expect(put()[0].body).toEqual({ identities: [{ handle: 'loyalty_card', identifier: '' }] });
    expect(field('Loyalty card').value).toBe('');
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('shows identities.<i>.identifier under the field of the handle sent at that index', async () => {
    fakeQffParcel();
    stub = backend({ 'PUT /api/profile': refused({ 'identities.1.identifier': 'This number is linked to another account' }) });
    await openDetails();
    fireEvent.change(screen.getByLabelText('Loyalty card'), { target: { value: 'LC-1' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '+61400000009' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save linked numbers' }));
    const phone = screen.getByLabelText('Phone');
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription('This number is linked to another account');
    expect(document.activeElement).toBe(phone);
    expect(screen.getByLabelText('Loyalty card')).not.toHaveAttribute('aria-invalid');
  });

  it('offers the frequent-flyer view only where the tenant has the Qantas program or an account is linked', async () => {
    const { configStore } = await import('@portal/runtime');
    const calls = fakeQffParcel();
    const { qantas: _, ...withoutQantas } = CONFIG.components as Record<string, unknown>;
    configStore.set({ config: { ...CONFIG, components: withoutQantas } as typeof CONFIG, loaded: true });
    stub = backend({
      'GET /api/profile': { body: { ...PROFILE, identities: PROFILE.identities.filter((i) => i.handle !== 'qff_number') } },
    });
    await openDetails();
    expect(screen.getByLabelText('Loyalty card')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('a frequent-flyer view that fails to load is a small error with a retry; the rest of My Details works', async () => {
    let fail = true;
    const calls = fakeQffParcel(() => (fail ? Promise.reject(new Error('mfe_qff timed out')) : Promise.resolve()));
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await openDetails();
    const section = screen.getByRole('heading', { level: 2, name: 'Linked identities' }).closest('section')!;
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Qantas Frequent Flyer could not be loaded.');
    expect(within(section).getByLabelText('Loyalty card')).toBeInTheDocument();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('Frequent flyer identity')).toBeInTheDocument();
    expect(calls).toHaveLength(2);
    error.mockRestore();
  });
});

describe('staff viewing the account', () => {
  it('shows the details read-only', async () => {
    const { authStore } = await import('@portal/runtime');
    authStore.set({ impersonating: true });
    await openDetails();
    expect(screen.getByText('You are viewing this account as staff: changes are turned off.')).toBeInTheDocument();
    expect(field('First name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    toastStore.set({ toasts: [] });
  });
});

describe('staff access', () => {
  it('lists staff access to the account, newest first, in the tenant time zone', async () => {
    stub = backend({
      'GET /api/profile/access-log': {
        body: {
          data: [
            { action: 'attempt', staff_id: 's_1', staff_name: 'Sam Staff', reason: 'Phone call', at: '2026-11-02T03:20:00Z' },
            { action: 'start', staff_id: 's_1', staff_name: 'Sam Staff', reason: null, at: '2026-11-02T03:15:00Z' },
          ],
        },
      },
    });
    await renderAt('/profile');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Staff access' })).closest('section')!;
    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Tried to make a change (blocked)');
    expect(within(items[0]).getByText('Sam Staff').tagName).toBe('BDI');
    // 03:20 UTC is 2:20 pm in Melbourne (daylight saving).
    expect(within(items[0]).getByText('2 Nov 2026, 2:20 pm')).toHaveAttribute('dateTime', '2026-11-02T03:20:00Z');
    expect(within(items[1]).getByText('No reason given')).toBeInTheDocument();
  });

  it('shows a friendly error when the profile cannot be loaded', async () => {
    stub = backend({ 'GET /api/profile': { status: 404, body: { status: 404, message: 'x', errors: {}, error: true } } });
    await renderAt('/profile');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('sub-navigation', () => {
  it('fires the spec’s click events (none for Preference)', async () => {
    const events: string[] = [];
    const off = onAnalytics((e) => e.type === 'event' && events.push(e.name));
    await openDetails();
    const nav = screen.getByRole('navigation', { name: 'My details sections' });
    for (const name of ['My Size', 'Messaging Preferences', 'Preference', 'My Details']) {
      // Each screen's chunk arrives inside act().
      await act(async () => fireEvent.click(within(nav).getByRole('link', { name })));
    }
    expect(events).toEqual(['my_size_click', 'messaging_preferences_click', 'my_details_click']);
    off();
  });
});
