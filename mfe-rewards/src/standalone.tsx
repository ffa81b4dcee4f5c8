import { createRoot } from 'react-dom/client';
import { initAuth, initI18n, loadConfig } from '@portal/runtime';
import { Root } from './Root';

// Runs this MFE without the shell: any page with <div id="root"> that loads main.js.
initI18n();
initAuth();
void loadConfig();
const el = document.getElementById('root');
if (el) createRoot(el).render(<Root />);
