// Writes while offline. Every control that sends a change to the server is a WriteButton (the
// forms' SubmitButton is one) or sits in a WriteFieldset (switches that save as they change):
// while the device is offline it is off, with the reason beside it and tied to it
// (aria-describedby), and back on as soon as the connection is. Online or offline comes from the
// runtime (browser events and the 3 s poll of /api/network/available). A build-time package like
// fields: each micro-frontend bundles its copy.
import { useId, type ButtonHTMLAttributes, type FieldsetHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '@portal/runtime';

/** "You're offline. You can save again when you're back online." */
export function OfflineReason({ id, shown = true }: { id: string; shown?: boolean }) {
  const { t } = useTranslation('runtime');
  return (
    <span id={id} className={shown ? 'offline-reason' : 'visually-hidden'}>
      {t('offline.writes')}
    </span>
  );
}

const describedBy = (own: string | undefined, reason: string | null) => [own, reason].filter(Boolean).join(' ') || undefined;

/**
 * A button that sends a change: a plain <button> online; offline it is off, with the reason after
 * it. `reasonShown={false}` for a button repeated down a list (one per offer, per order line): the
 * reason is then only read with the button, the offline banner says it for everyone.
 */
export function WriteButton({
  disabled,
  type = 'button',
  reasonShown = true,
  'aria-describedby': own,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { reasonShown?: boolean }) {
  const online = useOnline();
  const reasonId = useId();
  return (
    <>
      <button
        type={type}
        {...rest}
        disabled={disabled || !online}
        data-offline={online ? undefined : ''}
        aria-describedby={describedBy(own, online ? null : reasonId)}
      />
      {!online && <OfflineReason id={reasonId} shown={reasonShown} />}
    </>
  );
}

/** A group of controls that each save as they change (switches, a language choice): off offline, with the reason at its end. */
export function WriteFieldset({ disabled, children, 'aria-describedby': own, ...rest }: FieldsetHTMLAttributes<HTMLFieldSetElement>) {
  const online = useOnline();
  const reasonId = useId();
  return (
    <fieldset {...rest} disabled={disabled || !online} aria-describedby={describedBy(own, online ? null : reasonId)}>
      {children}
      {!online && <OfflineReason id={reasonId} />}
    </fieldset>
  );
}
