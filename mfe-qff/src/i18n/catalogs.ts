import en from './en.json';
import it from './it.json';
import es from './es.json';
import fr from './fr.json';
import ar from './ar.json';
import de from './de.json';
import el from './el.json';
import th from './th.json';

export const NS = 'mfe-qff';
export const catalogs = { en, it, es, fr, ar, de, el, th };
