// Issue 13, accessibility, on a desktop: axe-core on every screen in English and Arabic (the
// checks and the screens are in a11y.mjs).
import { axeSuite } from './a11y.mjs';

axeSuite('desktop');
