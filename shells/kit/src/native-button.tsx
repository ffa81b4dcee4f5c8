// A button for one of the native wrapper's actions (spec 9; docs/native-wrapper.md), shared by
// the shell and the MFEs (each bundles its copy). It is shown only when the wrapper offers the
// action; a press reports `event` (named with the screen's prefix, e.g. offers_goto_shop) and
// posts the action with its params.
import type { ReactNode } from 'react';
import { track, nativeActionAvailable, postNativeAction, type NativeAction } from '@portal/runtime';

export interface NativeActionButtonProps {
  action: NativeAction;
  /** The analytics event sent on a press. */
  event: string;
  eventParams?: Record<string, string | number | boolean>;
  /** Sent to the wrapper with the action, e.g. a voucher's id and code. */
  params?: Record<string, unknown>;
  className?: string;
  children: ReactNode;
}

export function NativeActionButton({ action, event, eventParams, params, className = 'btn', children }: NativeActionButtonProps) {
  if (!nativeActionAvailable(action)) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        track(event, eventParams);
        postNativeAction(action, params);
      }}
    >
      {children}
    </button>
  );
}
