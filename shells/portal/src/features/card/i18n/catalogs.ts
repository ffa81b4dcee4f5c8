import type { Catalogs } from '@portal/runtime';
import en from './en.json';
import it from './it.json';
import es from './es.json';
import fr from './fr.json';
import ar from './ar.json';
import de from './de.json';
import el from './el.json';
import th from './th.json';

/**
 * The card's own namespace. Every language is in the card's chunk (a few hundred bytes each): a
 * chunk per language would add its name to the shell's first-load code, which lists every chunk.
 */
export const CARD_NS = 'card';
export const cardCatalogs: Catalogs = { en, it, es, fr, ar, de, el, th };
