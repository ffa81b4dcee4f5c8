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
