import type { GarmentChart } from '../../../lib/settings';

/** The JSON text stored in `size:<garment>`. */
export interface SizeValue {
  system: string;
  size: string;
  fit: string;
}

/** How a size system is shown: AU sizes are also UK sizes. */
export const systemLabel = (system: string) => (system === 'AU' ? 'AU/UK' : system);

/** The stored JSON text of `size:<garment>`, or null when unset or unreadable. */
export function parseSize(text: unknown): SizeValue | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const v = JSON.parse(text) as Partial<SizeValue>;
    if (!v || typeof v.system !== 'string' || typeof v.size !== 'string' || !v.size) return null;
    return { system: v.system, size: v.size, fit: typeof v.fit === 'string' ? v.fit : '' };
  } catch {
    return null;
  }
}

/** The same size in `to` (size lists of a garment are index-aligned across systems); '' when none. */
export function convertSize(chart: GarmentChart, from: string, size: string, to: string): string {
  const i = chart.systems[from]?.indexOf(size) ?? -1;
  return i >= 0 ? (chart.systems[to]?.[i] ?? '') : '';
}

/** The size in every other system of the chart, for a convertible garment. */
export function conversions(chart: GarmentChart, value: SizeValue): { system: string; size: string }[] {
  return Object.keys(chart.systems)
    .filter((s) => s !== value.system)
    .map((system) => ({ system, size: convertSize(chart, value.system, value.size, system) }))
    .filter((c) => c.size);
}

/** The default fit: the middle one of the chart (regular, standard), else none. */
export const defaultFit = (chart: GarmentChart) => chart.fits[Math.floor((chart.fits.length - 1) / 2)] ?? '';
