import type { Catalogs } from '@portal/runtime';
import en from './en.json';

export const NS = 'mfe-profile';
/** en (the fallback) is bundled; another language's strings are fetched when it is chosen. */
export const catalogs: Catalogs = {
  en,
  it: () => import(/* webpackChunkName: "i18n-it" */ './it.json'),
  es: () => import(/* webpackChunkName: "i18n-es" */ './es.json'),
  fr: () => import(/* webpackChunkName: "i18n-fr" */ './fr.json'),
  ar: () => import(/* webpackChunkName: "i18n-ar" */ './ar.json'),
  de: () => import(/* webpackChunkName: "i18n-de" */ './de.json'),
  el: () => import(/* webpackChunkName: "i18n-el" */ './el.json'),
  th: () => import(/* webpackChunkName: "i18n-th" */ './th.json'),
};
