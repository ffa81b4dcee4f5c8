import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n, initI18n, registerCatalogs } from '@portal/runtime';
import { App } from '../layout/App';
import { SHELL_NS, shellCatalogs } from '../i18n/catalogs';

export function renderAt(path: string) {
  initI18n('?lang=en');
  registerCatalogs(SHELL_NS, shellCatalogs);
  window.history.replaceState(null, '', path);
  return render(
    <I18nextProvider i18n={i18n}>
      <App />
    </I18nextProvider>,
  );
}

/**
 * The calls /home's nearest-stores card makes (without IntersectionObserver, as in jsdom, it loads
 * at once): a test about something else on /home stubs them so the card has nothing to report.
 */
export const NEARBY_STORES_ROUTES = {
  'GET /api/geolocation/me': { body: { latitude: -37.81, longitude: 144.96, source: 'default' } },
  'GET /api/geolocation': { body: { latitude: -37.81, longitude: 144.96, locations: [] } },
};
