// The stores and events screens' strings: their own namespace, in their own chunk with the
// screens, so the shell's first load carries none of them.
import { catalogsFrom } from '@portal/runtime';
import { createMfeStrings } from '@portal/kit/mfe-strings';
import en from './en.json';

export const STORES_NS = 'stores';
export const StoresStrings = createMfeStrings(
  STORES_NS,
  catalogsFrom(en, (lang) => import(/* webpackChunkName: "stores-i18n-[request]" */ `./${lang}.json`)),
);
