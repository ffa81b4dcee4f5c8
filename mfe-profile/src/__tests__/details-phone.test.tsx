// My Details' phone (issue 24): a number written as it is dialled in the member's country is
// read with libphonenumber and sent in E.164; one that can't be that country's is refused on the
// field before anything is sent.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import type { Profile } from '@portal/runtime';
import { PROFILE, answersWith, backend, renderAt, resetAll, toasts } from './fixtures';
import { checkPhone, phoneRegion } from '../lib/phone';

let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => stub.restore());

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const puts = () => stub.calls.filter((c) => c.method === 'PUT');

async function openDetails(profile: Profile = PROFILE) {
  stub = backend({
    'GET /api/profile': { body: profile },
    'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })),
  });
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

async function save(phone: string) {
  fireEvent.change(field('Mobile phone'), { target: { value: phone } });
  fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
}

describe('My Details phone', () => {
  it('takes an Australian mobile as it is dialled in Australia and sends it in E.164', async () => {
    await openDetails();
    expect(field('Mobile phone')).toHaveAccessibleDescription(
      /^As you.d dial it in Australia, or in international format starting with \+\s*$/,
    );
    await save('0400 123 456');
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0].body).toEqual({ phone: '+61400123456' });
    await waitFor(() => expect(field('Mobile phone').value).toBe('+61400123456'));
    expect(toasts()).toContain('success: Your changes have been saved');
  });

  it('refuses a number that cannot be one of the country’s, on the field, focused, sending nothing', async () => {
    await openDetails();
    await save('0400 123');
    const phone = field('Mobile phone');
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription(
      /This isn.t a valid phone number in Australia: check the digits, or use international format starting with \+$/,
    );
    expect(document.activeElement).toBe(phone);
    expect(phone.value).toBe('0400 123');
    expect(toasts()).toEqual(['error: Please check the highlighted fields']);
    expect(puts()).toHaveLength(0);

    await save('+61 12');
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent("This isn't a valid phone number: check the country code and the digits"),
    );
    expect(puts()).toHaveLength(0);
  });

  it('reads the number in the country of the address chosen, and any country’s with +', async () => {
    await openDetails();
    fireEvent.change(field('Country'), { target: { value: 'NZ' } });
    expect(field('Mobile phone')).toHaveAccessibleDescription(/dial it in New Zealand/);
    await save('021 123 4567');
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0].body).toMatchObject({ phone: '+64211234567' });
  });

  it('in Arabic, says so in Arabic with the country’s Arabic name', async () => {
    const { setLanguage, languageReady } = await import('@portal/runtime');
    setLanguage('ar');
    await act(() => languageReady());
    stub = backend();
    await renderAt('/profile');
    const phone = (await screen.findByLabelText('رقم الجوال')) as HTMLInputElement;
    fireEvent.change(phone, { target: { value: '0400 123' } });
    fireEvent.click(screen.getByRole('button', { name: 'حفظ التغييرات' }));
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByRole('alert')).toHaveTextContent('هذا ليس رقم هاتف صالحًا في أستراليا');
    setLanguage('en');
  });
});

describe('checkPhone and phoneRegion', () => {
  it.each([
    ['0400 123 456', 'AU', '+61400123456'],
    ['(03) 9600 1234', 'AU', '+61396001234'],
    ['07400 123456', 'GB', '+447400123456'],
    ['+44 7400 123456', 'AU', '+447400123456'],
    ['', 'AU', ''],
  ])('%s in %s is %s', async (raw, region, e164) => {
    expect(await checkPhone(raw, region)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['0400 123', 'AU', false],
    ['call me', 'AU', false],
    ['0400 123 456', 'ZZ', false],
    ['+61 12', 'AU', true],
  ])('%s in %s is refused', async (raw, region, international) => {
    expect(await checkPhone(raw, region)).toEqual({ ok: false, international });
  });

  it('takes the address’s country, else the region, else the tenant’s, else AU', () => {
    expect(phoneRegion('GB', 'au', 'AU')).toBe('GB');
    expect(phoneRegion('', 'nz', 'AU')).toBe('NZ');
    expect(phoneRegion(undefined, 'north', 'FR')).toBe('FR');
    expect(phoneRegion(undefined, undefined, undefined)).toBe('AU');
  });
});
