import { createStore } from './store';

/** Count of route changes and requests in flight; the shell draws the top bar from it. */
export const progressStore = createStore({ pending: 0 });

export function startProgress(): () => void {
  let done = false;
  progressStore.set((s) => ({ pending: s.pending + 1 }));
  return () => {
    if (done) return;
    done = true;
    progressStore.set((s) => ({ pending: Math.max(0, s.pending - 1) }));
  };
}
