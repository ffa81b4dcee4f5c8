import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createStore, useStore } from './store';
import { BdiTrans } from './bidi';

// Another micro-frontend's UI inside this page, e.g. the frequent-flyer panel (mfe_qff) in the
// Rewards tab, in My Details and on /home. Micro-frontends never import each other: they name the
// remote here, and the shell (which alone knows the manifest, module federation and single-spa)
// registers how a remote is loaded and mounted.

export type ParcelProps = Record<string, unknown>;

/** One parcel the shell mounted (or is mounting) into an element. */
export interface ParcelHandle {
  /** Settles once the parcel is on the page; rejects when its remote could not be loaded or mounted. */
  mounted: Promise<void>;
  /** New props for the mounted parcel. */
  update(props: ParcelProps): void;
  /** Takes it off the page (also while it is still loading). */
  unmount(): void;
}

export type ParcelMounter = (remote: string, domElement: HTMLElement, props: ParcelProps) => ParcelHandle;

const mounterStore = createStore<{ mount: ParcelMounter | null }>({ mount: null });

/** The shell registers how a remote is mounted as a parcel (null: none, e.g. in tests). */
export function setParcelMounter(mount: ParcelMounter | null): void {
  mounterStore.set({ mount });
}

/**
 * Mounts `remote`'s `./app` lifecycles here with `props`; the parcel shows its own loading state.
 * A remote that is missing or fails is a small error with a retry, never a crash of the page
 * around it. Until the shell has registered its mounter (or in an MFE running without the shell)
 * it draws nothing. New `props` (compared by value) reach the mounted parcel through its update
 * lifecycle. (Kept small: it is part of /home's first load.)
 */
export function RemoteParcel({
  remote,
  props = {},
  label,
  className,
}: {
  remote: string;
  props?: ParcelProps;
  /** What the parcel is, for the error line ("… could not be loaded"). */
  label?: string;
  className?: string;
}) {
  const { t } = useTranslation('runtime');
  const { mount } = useStore(mounterStore);
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<ParcelHandle | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const key = JSON.stringify(props);
  // The props the parcel has (mounted with, or last updated to).
  const sent = useRef(key);
  const [failed, setFailed] = useState(false);
  // Each retry mounts again.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const el = host.current;
    if (!el || !mount) return undefined;
    let live = true;
    const fail = (err: unknown) => {
      console.error(`Could not mount ${remote}`, err);
      if (live) setFailed(true);
    };
    setFailed(false);
    try {
      sent.current = JSON.stringify(latest.current);
      handle.current = mount(remote, el, latest.current);
    } catch (err) {
      fail(err);
      return undefined;
    }
    const mounted = handle.current;
    mounted.mounted.catch(fail);
    return () => {
      live = false;
      handle.current = null;
      mounted.unmount();
    };
  }, [mount, remote, attempt]);

  useEffect(() => {
    if (!handle.current || sent.current === key) return;
    sent.current = key;
    handle.current.update(latest.current);
  }, [key]);

  return (
    <div className={className} data-remote={remote}>
      {failed && (
        <div className="card error-state parcel-error" role="alert">
          <p>{label ? <BdiTrans ns="runtime" k="parcel.failedNamed" values={{ name: label }} /> : t('parcel.failed')}</p>
          <button type="button" className="btn btn-secondary" onClick={() => setAttempt(attempt + 1)}>
            {t('error.retry')}
          </button>
        </div>
      )}
      {/* The parcel's own DOM: React never renders into this element. */}
      <div ref={host} hidden={failed} />
    </div>
  );
}
