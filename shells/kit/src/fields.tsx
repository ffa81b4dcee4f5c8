// Form fields shared by the micro-frontends' forms: each bundles its own copy (a build-time
// package, like mfe-providers), so nothing here weighs on the shell's first load.
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { FieldError } from '@portal/runtime';
import { WriteButton } from './offline';

interface Common {
  id: string;
  label: ReactNode;
  /** A hint under the field, read with it. */
  hint?: ReactNode;
  /** The server's message for this field, shown under it and announced. */
  error?: string;
}

const describedBy = (id: string, hint: ReactNode) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);

/**
 * A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). What the
 * member types keeps its own direction (dir="auto": a Latin address reads left to right on an
 * Arabic page).
 */
export function TextField({ id, label, hint, error, className, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} dir="auto" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint)} {...input} />
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** An emailed sign-in or confirmation code: six digits. */
export const CODE_PATTERN = /^\d{6}$/;

/**
 * The field for an emailed 6-digit code: digits only (anything else typed is dropped, at most
 * six), the phone's number pad, the code offered from the message (one-time-code), read left to
 * right on every page.
 */
export function CodeField({
  value,
  onDigits,
  ...field
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & { value: string; onDigits: (code: string) => void }) {
  return (
    <TextField
      {...field}
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      required
      dir="ltr"
      value={value}
      onChange={(e) => onDigits(e.target.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}

/** A labelled select whose hint and error are tied to it. */
export function SelectField({
  id,
  label,
  hint,
  error,
  className,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint)} {...select}>
        {children}
      </select>
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * A submit button that keeps the focus while busy: aria-busy and a busy label instead of
 * `disabled` (which would drop the focus to the page); the form ignores repeat submits meanwhile.
 * Offline it is off, with the reason beside it (a WriteButton): the form cannot be sent, not even
 * with Enter.
 */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  ...rest
}: { busy: boolean; label: string; busyLabel: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <WriteButton type="submit" className="btn" aria-busy={busy || undefined} {...rest}>
      {busy ? busyLabel : label}
    </WriteButton>
  );
}
