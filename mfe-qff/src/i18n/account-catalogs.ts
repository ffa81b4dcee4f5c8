import { catalogsFrom } from '@portal/runtime';
import en from './account/en.json';

/** The account views (link, unlink, conversion, activity): bundled with their chunk, not on /home. */
export const ACCOUNT_NS = 'mfe-qff-account';
/** en (the fallback) is bundled; another language's strings are fetched when it is chosen. */
export const accountCatalogs = catalogsFrom(
  en,
  (lang) => import(/* webpackChunkName: "i18n-account-[request]", webpackExclude: /en\.json$/ */ `./account/${lang}.json`),
);
