import { createRoot } from 'react-dom/client';
import { initAuth, initI18n, loadConfig } from '@portal/runtime';
import { Root, isQffView } from './Root';

// Runs this MFE without the shell: any page with <div id="root"> that loads main.js. `?view=`
// picks the view (full by default; summary, identity).
initI18n();
initAuth();
void loadConfig();
const asked = new URLSearchParams(window.location.search).get('view');
const el = document.getElementById('root');
if (el) createRoot(el).render(<Root view={isQffView(asked) ? asked : 'full'} />);
