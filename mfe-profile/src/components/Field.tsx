import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { FieldError } from '@portal/runtime';

interface Common {
  id: string;
  label: ReactNode;
  /** The server's message for this field, shown under it and announced. */
  error?: string;
}

/**
 * A labelled input whose error is tied to it (aria-invalid, aria-describedby). What the member
 * types keeps its own direction (dir="auto": a Latin address reads left to right on an Arabic page).
 */
export function TextField({ id, label, error, className, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${id}-error`;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} dir="auto" aria-invalid={error ? true : undefined} aria-describedby={errorId} {...input} />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A labelled select whose error is tied to it. */
export function SelectField({
  id,
  label,
  error,
  className,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={errorId} {...select}>
        {children}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A submit button that keeps the focus while busy: aria-busy and a busy label instead of
 * `disabled` (which would drop the focus to the page); the form ignores repeat submits meanwhile.
 */
export function SubmitButton({ busy, label, busyLabel, ...rest }: { busy: boolean; label: string; busyLabel: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="submit" className="btn" aria-busy={busy || undefined} {...rest}>
      {busy ? busyLabel : label}
    </button>
  );
}
