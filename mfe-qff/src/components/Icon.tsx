import { createIcons } from '@portal/kit/icons';

// The icons of the account views (decorative: each beside a text that says the same).
const PATHS = {
  check: 'M4 12.5l5 5L20 6.5',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3.5 2',
  cross: 'M6 6l12 12M18 6L6 18',
  plane: 'M21 15.5l-8-5V5a1.5 1.5 0 0 0-3 0v5.5l-8 5v2l8-2.5V20l-2.5 1.5V23l4-1l4 1v-1.5L13 20v-5.5l8 2.5z',
} as const;

export const Icon = createIcons(PATHS);
