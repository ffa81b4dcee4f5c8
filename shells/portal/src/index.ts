// Async boundary so module federation can negotiate shared singletons first. In a task of its own
// after the federation runtime's start: the page the build drew is already on the screen, and no
// task should keep the main thread long (see bootstrap.tsx).
import { nextTask } from './next-task';

void nextTask().then(() => import('./bootstrap'));
