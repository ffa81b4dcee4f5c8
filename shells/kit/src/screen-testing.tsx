// What every micro-frontend's screen tests start from: a signed-in member, its Root rendered at a
// path, the toasts shown, and an error answer in the spec's shape. Each MFE's fixtures add their
// own data and reset.
import type { ComponentType } from 'react';
import { act, render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { authStore, configStore, initI18n, toastStore, type AuthState, type PortalConfig } from '@portal/runtime';
import type { StubResponse } from './fetch-stub';

export function signIn(extra: Partial<AuthState> = {}) {
  authStore.set({ authenticated: true, profile_id: 'p_demo', token: 'token-p_demo', loading: false, impersonating: false, ...extra });
}

/** Before each test: English, an empty cache and no toasts, the tenant's config loaded, signed in. */
export function resetScreens(queryClient: QueryClient, config: PortalConfig) {
  initI18n('?lang=en');
  queryClient.clear();
  toastStore.set({ toasts: [] });
  configStore.set({ config, loaded: true });
  signIn();
}

/** Renders `Root` at `path`, letting the screen's lazily loaded chunk arrive inside act(). */
export async function renderRoot(Root: ComponentType, path: string) {
  window.history.replaceState(null, '', path);
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(<Root />);
  });
  return result!;
}

export const toasts = () => toastStore.get().toasts.map((t) => `${t.type}: ${t.text}`);

/** A refusal as the gateway sends it. */
export const errorAnswer = (status: number, message: string, errors: Record<string, string> = {}): StubResponse => ({
  status,
  body: { status, message, errors, error: true },
});
