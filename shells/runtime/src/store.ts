import { createContext, useContext, useSyncExternalStore } from 'react';

export interface Store<T> {
  get(): T;
  set(next: Partial<T> | ((prev: T) => T)): void;
  subscribe(listener: (state: T) => void): () => void;
  /**
   * The state a page drawn ahead of time shows (the shell's build renders its pages to HTML with
   * React's server renderer): what useStore gives while that HTML is rendered and hydrated (see
   * DrawnAhead). The state the store was created with, unless set otherwise.
   */
  getServerState(): T;
  setServerState(state: T): void;
}

/**
 * Minimal observable store; React reads it through useStore. `server`: the state a page drawn
 * ahead of time shows, when the initial state depends on the browser (e.g. `navigator.onLine`).
 */
export function createStore<T extends object>(initial: T, server: T = initial): Store<T> {
  let state = initial;
  let serverState = server;
  const listeners = new Set<(state: T) => void>();
  return {
    get: () => state,
    set(next) {
      state = typeof next === 'function' ? (next as (prev: T) => T)(state) : { ...state, ...next };
      listeners.forEach((l) => l(state));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getServerState: () => serverState,
    setServerState(next) {
      serverState = next;
    },
  };
}

/**
 * True inside a tree that draws the state its HTML was drawn in ahead of time: the shell's build
 * renders its pages with it, and the client hydrates them with it, then sets it to false in a
 * transition (rendered in slices, never one long task) to draw the current state in place.
 * Stores give their server state (useStore), the router the address the page was drawn for, and
 * useBrowserValue its server value, so the hydrating render matches the HTML. Effects that act on
 * the current state (a fetch, a screen view) wait until it is false (useDrawn).
 */
export const DrawnAhead = createContext(false);

/** Whether this render draws the page as it was drawn ahead of time (see DrawnAhead). */
export function useDrawn(): boolean {
  return useContext(DrawnAhead);
}

/** The store's state; its server state while drawn ahead of time (DrawnAhead). */
export function useStore<T extends object>(store: Store<T>): T {
  // While drawn, React reads only the server state, which does not change: a store that changes
  // meanwhile (a request starting, the config arriving) neither interrupts the hydration nor
  // makes React re-render everything at once to stay consistent with it.
  const read = useDrawn() ? store.getServerState : store.get;
  return useSyncExternalStore(store.subscribe, read, read);
}

/**
 * A value only the browser knows (storage, the native wrapper's bridge) for rendering: `server`
 * while drawn ahead of time (DrawnAhead), `read()` otherwise.
 */
export function useBrowserValue<T>(read: () => T, server: T): T {
  return useDrawn() ? server : read();
}
