import { createRoot } from 'react-dom/client';
import { initAuth, initI18n, loadConfig, matchPath } from '@portal/runtime';
import { Root, routes } from './Root';

// Runs this MFE without the shell (`npm run build:standalone`, then serve dist/ with an
// SPA fallback next to the API). Sign-in comes from the token cached in localStorage.
initI18n();
initAuth();
void loadConfig();
if (!routes.some((r) => matchPath(r.path, window.location.pathname))) {
  window.history.replaceState(null, '', routes[0].path);
}
const el = document.getElementById('root');
if (el) createRoot(el).render(<Root />);
