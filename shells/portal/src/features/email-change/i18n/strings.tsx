// The undo screen's strings: their own namespace, in the screen's own chunk, so the shell's first
// load carries none of them.
import { catalogsFrom } from '@portal/runtime';
import { createMfeStrings } from '@portal/kit/mfe-strings';
import en from './en.json';

export const EMAIL_CHANGE_NS = 'email-change';
export const EmailChangeStrings = createMfeStrings(
  EMAIL_CHANGE_NS,
  catalogsFrom(en, (lang) => import(/* webpackChunkName: "email-change-i18n-[request]" */ `./${lang}.json`)),
);
