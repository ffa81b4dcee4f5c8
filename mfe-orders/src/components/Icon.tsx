import { createIcons } from '@portal/kit/icons';

// The icons this micro-frontend uses (decorative: each beside a text that says the same).
const PATHS = {
  check: 'M4 12.5l5 5L20 6.5',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3.5 2',
  cross: 'M6 6l12 12M18 6L6 18',
  chevron: 'M6 9l6 6l6-6',
  cart: 'M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.7a1 1 0 0 0 1-.8L20 8H6.2M9 20h.01M17 20h.01',
  heart: 'M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z',
} as const;

export type IconName = keyof typeof PATHS;
export const Icon = createIcons(PATHS);
