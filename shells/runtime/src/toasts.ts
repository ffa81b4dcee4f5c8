import { createStore } from './store';

export type ToastType = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  title?: string;
  text?: string;
  type: ToastType;
  timeout: number;
  infinite: boolean;
  canDismiss: boolean;
  onClick?: () => void;
  /** Set when the toast starts leaving; it is deleted TOAST_REMOVE_MS later. */
  out: boolean;
}

export type ToastInput = Partial<Omit<Toast, 'id' | 'out'>>;

export const TOAST_DEFAULT_TIMEOUT = 2000;
export const TOAST_REMOVE_MS = 300;
export const TOAST_MAX_VISIBLE = 3;

/** All toasts, newest first. */
export const toastStore = createStore<{ toasts: Toast[] }>({ toasts: [] });

let nextId = 1;

export function addToast(input: ToastInput): number {
  const toast: Toast = {
    id: nextId++,
    title: input.title,
    text: input.text,
    type: input.type ?? 'info',
    timeout: input.timeout ?? TOAST_DEFAULT_TIMEOUT,
    infinite: input.infinite ?? false,
    canDismiss: input.canDismiss ?? true,
    onClick: input.onClick,
    out: false,
  };
  toastStore.set((s) => ({ toasts: [toast, ...s.toasts] }));
  if (!toast.infinite) setTimeout(() => removeToast(toast.id), toast.timeout);
  return toast.id;
}

/** Marks the toast out, then deletes it after the removal animation. */
export function removeToast(id: number): void {
  const found = toastStore.get().toasts.find((t) => t.id === id);
  if (!found || found.out) return;
  toastStore.set((s) => ({ toasts: s.toasts.map((t) => (t.id === id ? { ...t, out: true } : t)) }));
  setTimeout(() => {
    toastStore.set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  }, TOAST_REMOVE_MS);
}

/** The toasts to draw: at most three, newest first. */
export function visibleToasts(toasts: Toast[] = toastStore.get().toasts): Toast[] {
  return toasts.slice(0, TOAST_MAX_VISIBLE);
}
