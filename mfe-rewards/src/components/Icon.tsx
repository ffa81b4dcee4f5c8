import { createIcons } from '@portal/kit/icons';

// The icons this micro-frontend uses (decorative: each beside a text that says the same).
const PATHS = {
  check: 'M4 12.5l5 5L20 6.5',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3.5 2',
  cross: 'M6 6l12 12M18 6L6 18',
  gift: 'M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-1.5-3-5-3.5-5-1.2C7 7 9.5 7 12 7c2.5 0 5 0 5-1.2C17 3.5 13.5 4 12 7',
  star: 'M12 3.5l2.6 5.3l5.9.9l-4.25 4.1l1 5.8L12 16.9l-5.25 2.7l1-5.8L3.5 9.7l5.9-.9z',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  spark: 'M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M18 6l-2.5 2.5M8.5 15.5L6 18',
} as const;

export type IconName = keyof typeof PATHS;
export const Icon = createIcons(PATHS);
