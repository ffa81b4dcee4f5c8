// Registers the service worker (/sw.js: the shell and the remotes offline; src/sw/sw.ts) once the
// page has loaded, so its downloads never compete with the first screen's. Not inside a partner
// page's iframe: there the browser keeps a third party's storage apart, or refuses it, and the
// partner's page is no use offline anyway.
export const SW_URL = '/sw.js';

export function registerServiceWorker(win: Window = window): void {
  const container = win.navigator.serviceWorker;
  if (!container) return;
  const register = () => void container.register(SW_URL).catch(() => undefined);
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
}
