import { catalogsFrom } from '@portal/runtime';
import en from './en.json';

export const NS = 'mfe-qff';
/** en (the fallback) is bundled; another language's strings are fetched when it is chosen. */
export const catalogs = catalogsFrom(en, (lang) => import(/* webpackChunkName: "i18n-[request]" */ `./${lang}.json`));
