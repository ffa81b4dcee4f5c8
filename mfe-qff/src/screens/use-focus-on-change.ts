import { useEffect, useRef } from 'react';

/**
 * Focuses `ref` when `value` changes after the first time it is known (the account was linked or
 * unlinked here: the form or dialog that had the focus is gone, and the heading says what is now).
 */
export function useFocusOnChange<T extends HTMLElement>(value: boolean | undefined) {
  const ref = useRef<T>(null);
  const last = useRef<boolean | undefined>(undefined);
  useEffect(() => {
    if (value === undefined) return;
    if (last.current !== undefined && last.current !== value) ref.current?.focus();
    last.current = value;
  }, [value]);
  return ref;
}
