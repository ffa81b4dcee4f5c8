import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { FieldError } from '@portal/runtime';

interface Common {
  id: string;
  label: ReactNode;
  /** A hint under the field, read with it. */
  hint?: ReactNode;
  /** The server's message for this field, shown under it and announced. */
  error?: string;
}

const describedBy = (id: string, hint: ReactNode) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);

/** A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). */
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
