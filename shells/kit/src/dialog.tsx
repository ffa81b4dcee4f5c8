// The modal dialog of the micro-frontends (Rewards' redeem confirmation, the frequent-flyer
// unlink and conversion dialogs). Each MFE bundles its copy (a build-time package, like fields).
import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> (showModal: the rest of the page is inert, Escape asks to
 * close). Mounted = open. The focus goes to the element marked `data-autofocus` (else the first
 * button) and, once it closes, back to `returnFocus` (the button that opened it: Safari does not
 * focus a clicked button) or else to where it was. Escape, the platform's close request and a
 * click on the backdrop call `onClose`; the owner unmounts it.
 */
export function Dialog({
  labelledBy,
  describedBy,
  onClose,
  returnFocus,
  className,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  returnFocus?: HTMLElement | null;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // What to return to is known when it opens.
  const returnTo = useRef(returnFocus);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = returnTo.current ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    // Browsers without showModal (and test DOMs): an open, non-modal dialog.
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('button'))?.focus();
    return () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
    // Mounted = open: runs once.
  }, []);

  const onBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    // The dialog box has no padding of its own: a click on the dialog itself is on the backdrop.
    if (e.target === e.currentTarget) close.current();
  };

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the modal's own Escape (onCancel, onKeyDown) and its backdrop click (onClick): a <dialog>'s handlers, not a widget's
    <dialog
      ref={ref}
      className={`dialog${className ? ` ${className}` : ''}`}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        close.current();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        close.current();
      }}
      onClick={onBackdrop}
    >
      <div className="dialog__body">{children}</div>
    </dialog>
  );
}
