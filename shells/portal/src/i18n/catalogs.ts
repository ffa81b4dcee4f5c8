import { catalogsFrom } from '@portal/runtime';
import en from './en.json';

export const SHELL_NS = 'shell';
/** en (the fallback) is bundled; another language's strings are fetched when it is chosen. */
export const shellCatalogs = catalogsFrom(en, (lang) => import(/* webpackChunkName: "i18n-[request]" */ `./${lang}.json`));
