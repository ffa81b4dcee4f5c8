import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { CONFIG, answersWith, backend, refused, renderAt, resetAll, toasts } from './fixtures';
import { conversions, convertSize, parseSize } from '../features/size/lib/sizes';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => stub.restore());

const SHOES = {
  systems: { AU: ['8', '8.5', '9', '9.5'], US: ['9', '9.5', '10', '10.5'], EU: ['41', '42', '42.5', '43'] },
  fits: ['narrow', 'standard', 'wide'],
  convertible: true,
};

async function garment(name: string) {
  await renderAt('/size');
  return (await screen.findByRole('heading', { level: 2, name })).closest('form')!;
}

describe('size conversion', () => {
  it('converts by index across systems', () => {
    expect(convertSize(SHOES, 'AU', '9', 'US')).toBe('10');
    expect(convertSize(SHOES, 'US', '10.5', 'EU')).toBe('43');
    expect(convertSize(SHOES, 'AU', '12', 'US')).toBe('');
    expect(conversions(SHOES, { system: 'AU', size: '8.5', fit: '' })).toEqual([
      { system: 'US', size: '9.5' },
      { system: 'EU', size: '42' },
    ]);
  });

  it('reads the stored JSON text, ignoring what is not a size', () => {
    expect(parseSize('{"system":"EU","size":"42","fit":"wide"}')).toEqual({ system: 'EU', size: '42', fit: 'wide' });
    expect(parseSize('M')).toBeNull();
    expect(parseSize('{"system":"EU"}')).toBeNull();
    expect(parseSize(undefined)).toBeNull();
  });
});

describe('My Size', () => {
  it('shows each garment of the tenant chart, the saved shoe size converted into the other systems', async () => {
    const shoes = await garment('Shoes');
    expect(screen.getByRole('heading', { level: 1, name: 'My Size' })).toBeInTheDocument();
    expect(within(shoes).getByText('Saved:', { exact: false })).toHaveTextContent('Saved: AU/UK 9, Standard fit');
    expect(within(shoes).getByText('AU/UK 9').tagName).toBe('BDI');
    expect(within(shoes).getByText('In other size systems:')).toBeInTheDocument();
    expect(within(shoes).getByText('US 10')).toBeInTheDocument();
    expect(within(shoes).getByText('EU 42.5')).toBeInTheDocument();
    expect((within(shoes).getByLabelText('Size system') as HTMLSelectElement).value).toBe('AU');
    expect(within(shoes).getByRole('option', { name: 'AU/UK' })).toBeInTheDocument();
    expect((within(shoes).getByLabelText('Size') as HTMLSelectElement).value).toBe('9');
    const tops = screen.getByRole('heading', { level: 2, name: 'Tops' }).closest('form')!;
    expect(within(tops).getByText('No size saved yet.')).toBeInTheDocument();
    // Tops are not convertible: no conversion line.
    expect(within(tops).queryByText('In other size systems:')).toBeNull();
  });

  it('shows the garments tops, bottoms, dresses, shoes whatever the key order of the config', async () => {
    const { configStore } = await import('@portal/runtime');
    const sizes = (CONFIG.components as { profile: { sizes: Record<string, unknown> } }).profile.sizes;
    const sorted = { accessories: sizes.tops, shoes: sizes.shoes, tops: sizes.tops };
    configStore.set({ config: { ...CONFIG, components: { profile: { sizes: sorted } } } as typeof CONFIG, loaded: true });
    await renderAt('/size');
    await screen.findByRole('heading', { level: 2, name: 'Tops' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Tops', 'Shoes', 'accessories']);
  });

  it('carries the chosen size over when the system changes', async () => {
    const shoes = await garment('Shoes');
    fireEvent.change(within(shoes).getByLabelText('Size system'), { target: { value: 'EU' } });
    expect((within(shoes).getByLabelText('Size') as HTMLSelectElement).value).toBe('42.5');
    expect(within(shoes).getByRole('option', { name: '43' })).toBeInTheDocument();
  });

  it('saves a garment as JSON text with PUT size:<garment> and shows it back', async () => {
    stub = backend({
      'PUT /api/profile/attributes/custom/size:tops': answersWith((p, body) => ({
        ...p,
        custom_attributes: { ...p.custom_attributes, size: { ...p.custom_attributes.size, tops: String(body.value) } },
      })),
    });
    const tops = await garment('Tops');
    fireEvent.change(within(tops).getByLabelText('Size'), { target: { value: '10' } });
    fireEvent.change(within(tops).getByLabelText('Fit'), { target: { value: 'relaxed' } });
    fireEvent.click(within(tops).getByRole('button', { name: 'Save Tops' }));
    expect(await within(tops).findByText('Saved:', { exact: false })).toHaveTextContent('Saved: AU/UK 10, Relaxed fit');
    const puts = stub.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.path)).toEqual(['/api/profile/attributes/custom/size:tops']);
    expect(JSON.parse((puts[0].body as { value: string }).value)).toEqual({ system: 'AU', size: '10', fit: 'relaxed' });
    expect(toasts()).toContain('success: Your changes have been saved');
  });

  it('removes a size with an empty value', async () => {
    stub = backend({
      'PUT /api/profile/attributes/custom/size:shoes': answersWith((p) => ({
        ...p,
        custom_attributes: { ...p.custom_attributes, size: {} },
      })),
    });
    const shoes = await garment('Shoes');
    fireEvent.change(within(shoes).getByLabelText('Size'), { target: { value: '' } });
    fireEvent.click(within(shoes).getByRole('button', { name: 'Save Shoes' }));
    expect(await within(shoes).findByText('No size saved yet.')).toBeInTheDocument();
    expect(stub.calls.find((c) => c.method === 'PUT')?.body).toEqual({ value: '' });
  });

  it('shows errors.value under the size and keeps the choice', async () => {
    stub = backend({ 'PUT /api/profile/attributes/custom/size:tops': refused({ value: 'That size is not in the size chart' }) });
    const tops = await garment('Tops');
    fireEvent.change(within(tops).getByLabelText('Size'), { target: { value: '12' } });
    fireEvent.click(within(tops).getByRole('button', { name: 'Save Tops' }));
    const size = within(tops).getByLabelText('Size');
    await waitFor(() => expect(size).toHaveAttribute('aria-invalid', 'true'));
    expect(size).toHaveAccessibleDescription('That size is not in the size chart');
    expect(document.activeElement).toBe(size);
    expect((size as HTMLSelectElement).value).toBe('12');
    expect(within(tops).getByText('No size saved yet.')).toBeInTheDocument();
  });
});
