import { createIcons } from '@portal/kit/icons';

// The privacy centre's icons (decorative: each beside a text that says the same).
const PATHS = {
  mobile: 'M8 2.5h8a1.5 1.5 0 0 1 1.5 1.5v16a1.5 1.5 0 0 1-1.5 1.5H8A1.5 1.5 0 0 1 6.5 20V4A1.5 1.5 0 0 1 8 2.5zM11 18h2',
  tablet: 'M5.5 2.5h13A1.5 1.5 0 0 1 20 4v16a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 20V4a1.5 1.5 0 0 1 1.5-1.5zM11 18h2',
  desktop: 'M3.5 4h17a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-17a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zM8 20h8M12 16v4',
  unknown: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M3 12h18M12 3c3.2 3.5 3.2 14.5 0 18M12 3c-3.2 3.5-3.2 14.5 0 18',
  download: 'M12 3.5v11M7 10l5 5l5-5M5 20.5h14',
} as const;

export type IconName = keyof typeof PATHS;
export const Icon = createIcons(PATHS);
