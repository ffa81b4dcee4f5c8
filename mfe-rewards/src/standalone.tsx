import { runStandalone } from '@portal/kit/mfe-standalone';
import { Root } from './Root';
import { routes } from './screens/routes';

// Runs this MFE without the shell (`npm run build:standalone`, then serve dist/ with an SPA
// fallback next to the API).
runStandalone(Root, { routes });
