import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, isHttpError } from '@portal/runtime';

export type FieldErrors = Record<string, string>;

/**
 * The catalog key of a server error field: `address.city` → `city`,
 * `identities.0.identifier` → `identifier`; an email already in use (409) → `emailTaken`.
 */
function messageKey(field: string, status: number): string {
  if (field === 'email' && status === 409) return 'emailTaken';
  if (field.startsWith('identities.')) return 'identifier';
  return field.split('.').pop() ?? field;
}

/**
 * Field errors of a refused write (422, or 409 for an email in use), shown under their fields:
 * the server's English sentence in English, the catalog's message for that field otherwise.
 * After each refusal the first invalid field of `ref` gets the focus.
 */
export function useServerErrors<T extends HTMLElement = HTMLFormElement>() {
  const { t, i18n } = useTranslation();
  const ref = useRef<T>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (refusals) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  /** Shows the field errors of `err` (keys renamed by `rename`); false when it has none. */
  function fromError(err: unknown, rename: (field: string) => string = (f) => f): boolean {
    if (!isHttpError(err) || (err.status !== 422 && err.status !== 409) || !Object.keys(err.errors).length) return false;
    const next: FieldErrors = {};
    for (const [field, message] of Object.entries(err.errors)) {
      next[rename(field)] =
        i18n.language === 'en' && message ? message : t(`errors.${messageKey(field, err.status)}`, { defaultValue: t('errors.generic') });
    }
    setErrors(next);
    setRefusals((n) => n + 1);
    return true;
  }

  /** Shows problems found before sending, as a refusal's are shown (and focused). */
  function show(next: FieldErrors) {
    setErrors(next);
    setRefusals((n) => n + 1);
  }

  return { ref, errors, fromError, show, clear: () => setErrors({}) };
}

/**
 * A failed write, told with a toast: "check the highlighted fields" when they show what is wrong,
 * otherwise that it could not be saved. A 403 (staff viewing the account) is already told by the
 * runtime.
 */
export function toastWriteError(err: unknown, t: (key: string) => string, fieldsShown: boolean): void {
  if (isHttpError(err) && err.status === 403) return;
  addToast({ type: 'error', text: t(fieldsShown ? 'form.checkFields' : 'form.failed'), timeout: 5000 });
}

export function toastSaved(t: (key: string) => string, key = 'form.saved'): void {
  addToast({ type: 'success', text: t(key) });
}

/**
 * A form's draft over the saved values. While the member has changed nothing, the draft follows
 * the saved values as they change (the cached profile shown first, then the reloaded one); once
 * they have typed something, nothing overwrites it until they save. `initial`: the draft to start
 * from (edits kept from before, see kept-draft.ts) rather than the saved values.
 */
export function useDraft<T>(base: T, isChanged: (saved: T, draft: T) => boolean, initial?: () => T | null) {
  const key = JSON.stringify(base);
  const [state, setState] = useState(() => ({ key, saved: base, draft: initial?.() ?? base }));
  if (state.key !== key && !isChanged(state.saved, state.draft)) setState({ key, saved: base, draft: base });
  return {
    saved: state.saved,
    draft: state.draft,
    setDraft: (draft: T) => setState((s) => ({ ...s, draft })),
    /** After a save: the server's answer is the new starting point. */
    reset: (next: T) => setState({ key: JSON.stringify(next), saved: next, draft: next }),
  };
}
