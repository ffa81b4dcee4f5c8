import { runStandalone } from '@portal/kit/mfe-standalone';
import { Root, isQffView } from './Root';

// Runs this MFE without the shell: any page with <div id="root"> that loads main.js. `?view=`
// picks the view (full by default; summary, identity).
runStandalone(Root, {
  rootProps: (location) => {
    const asked = new URLSearchParams(location.search).get('view');
    return { view: isQffView(asked) ? asked : 'full' };
  },
});
