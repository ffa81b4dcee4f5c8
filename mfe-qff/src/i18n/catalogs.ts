import { catalogsFrom } from '@portal/runtime';
import en from './summary/en.json';

/** The summary on /home: a handful of strings, bundled with it. */
export const NS = 'mfe-qff';
/** en (the fallback) is bundled; another language's strings are fetched when it is chosen. */
export const catalogs = catalogsFrom(
  en,
  (lang) => import(/* webpackChunkName: "i18n-[request]", webpackExclude: /en\.json$/ */ `./summary/${lang}.json`),
);
