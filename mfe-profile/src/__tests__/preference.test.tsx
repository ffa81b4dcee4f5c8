import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import * as runtime from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { answersWith, backend, refused, renderAt, resetAll, toasts } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend({
    'PUT /api/profile/attributes/custom/locale:language': answersWith((p, body) => ({
      ...p,
      custom_attributes: { ...p.custom_attributes, locale: { language: String(body.value) } },
    })),
  });
});
afterEach(() => {
  stub.restore();
  runtime.setLanguage('en');
});

describe('Preference', () => {
  it('switches the language live through the runtime, Arabic right-to-left, and saves it as locale:language', async () => {
    await renderAt('/preference');
    fireEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    // The runtime's one language switch: its store, the stored choice, the document's lang and dir.
    expect(localStorage.getItem('portal.language')).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    // Same page, its strings now Arabic (fetched on demand), no reload.
    expect(await screen.findByRole('heading', { level: 1, name: 'التفضيلات' })).toBeInTheDocument();
    await waitFor(() => expect(toasts()).toContain('success: تم حفظ اللغة'));
    expect(stub.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      ['/api/profile/attributes/custom/locale:language', { value: 'ar' }],
    ]);
    fireEvent.click(screen.getByRole('radio', { name: 'English' }));
    expect(document.documentElement.dir).toBe('ltr');
    await waitFor(() => expect(stub.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
  });

  it('keeps the chosen language on the page but says so when it could not be saved', async () => {
    stub.restore();
    stub = backend({ 'PUT /api/profile/attributes/custom/locale:language': { status: 500 } });
    await renderAt('/preference');
    fireEvent.click(screen.getByRole('radio', { name: 'Deutsch' }));
    await waitFor(() =>
      expect(toasts()).toContain('error: Ihre Änderungen konnten nicht gespeichert werden. Bitte versuchen Sie es erneut.'),
    );
    expect(document.documentElement.lang).toBe('de');
  });

  it('picks the preferred store from GET /api/geolocation and saves it as preference:store', async () => {
    stub.restore();
    stub = backend({
      'PUT /api/profile/attributes/custom/preference:store': answersWith((p, body) => ({
        ...p,
        custom_attributes: { ...p.custom_attributes, preference: { store: String(body.value) } },
      })),
    });
    await renderAt('/preference');
    const store = (await screen.findByLabelText('Store')) as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Chadstone' });
    expect(store.value).toBe('melbourne-central');
    fireEvent.change(store, { target: { value: 'chadstone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(toasts()).toContain('success: Preferred store saved'));
    expect(stub.calls.find((c) => c.method === 'PUT')?.body).toEqual({ value: 'chadstone' });
    expect(store.value).toBe('chadstone');
  });

  it('orders the stores nearest first from the approximate position, with distances and the credit', async () => {
    stub.restore();
    stub = backend({
      'GET /api/geolocation/me': {
        body: { latitude: -37.88, longitude: 145.08, source: 'ip', credit: { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com' } },
      },
      'GET /api/geolocation': {
        body: {
          latitude: -37.88,
          longitude: 145.08,
          locations: [
            { id: 1, handle: 'chadstone', name: 'Chadstone', latitude: -37.88, longitude: 145.08, distance: 420 },
            { id: 2, handle: 'melbourne-central', name: 'Melbourne Central', latitude: -37.81, longitude: 144.96, distance: 13_534 },
          ],
        },
      },
    });
    await renderAt('/preference');
    await screen.findByRole('option', { name: 'Chadstone · 400 m' });
    const names = screen.getAllByRole('option').map((o) => o.textContent);
    expect(names).toEqual(['No preferred store', 'Chadstone · 400 m', 'Melbourne Central · 14 km']);
    expect(screen.getByText(/Nearest first, from your approximate location/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'IP Geolocation by DB-IP' })).toHaveAttribute('href', 'https://db-ip.com');
    expect(stub.calls.map((c) => c.url)).toContain('/api/geolocation?latitude=-37.88&longitude=145.08');
  });

  it('shows errors.value under the store field', async () => {
    stub.restore();
    stub = backend({ 'PUT /api/profile/attributes/custom/preference:store': refused({ value: 'Unknown store' }) });
    await renderAt('/preference');
    const store = (await screen.findByLabelText('Store')) as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Chadstone' });
    fireEvent.change(store, { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await waitFor(() => expect(store).toHaveAccessibleDescription('Unknown store'));
    expect(document.activeElement).toBe(store);
  });
});
