// Run-time discovery: manifest → registerRemotes → one single-spa application per MFE route.
import { registerRemotes, loadRemote } from '@module-federation/enhanced/runtime';
import { mountRootParcel, registerApplication, start, triggerAppChange, getAppNames, type LifeCycles, type Parcel } from 'single-spa';
import { authStore, setParcelMounter, type MfeManifest, type ParcelHandle, type ParcelProps } from '@portal/runtime';
import { fetchManifest } from './manifest';
import { MFE_ROUTES, remoteForPath } from './routes';
import { remoteStatus, setRetryHandler } from './status';
import { reportRemote } from './report';
import { nextTask } from '../next-task';

export const REMOTE_LOAD_TIMEOUT_MS = 10000;

let manifest: MfeManifest = {};

function markFailed(remote: string): void {
  const failed = remoteStatus.get().failed;
  if (!failed.includes(remote)) remoteStatus.set({ failed: [...failed, remote] });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    promise.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/**
 * The remote's lifecycles, with a `reportProblem` prop (the tab tells of an error it caught while
 * drawing, or of its refusal to mount) and a mount or update that throws reported as a render
 * failure.
 */
function reporting(remote: string, config: LifeCycles): LifeCycles {
  const reportProblem = (outcome: 'render_failed' | 'incompatible') => reportRemote(manifest, remote, outcome);
  const guard =
    (step: 'mount' | 'update') =>
    async (props: object): Promise<unknown> => {
      const fn = config[step] as ((p: object) => Promise<unknown>) | undefined;
      try {
        return await fn?.({ ...props, reportProblem });
      } catch (err) {
        reportProblem('render_failed');
        throw err;
      }
    };
  return { ...config, mount: guard('mount'), update: config.update ? guard('update') : undefined } as LifeCycles;
}

async function loadLifecycles(remote: string): Promise<LifeCycles> {
  if (!manifest[remote]) {
    markFailed(remote);
    throw new Error(`${remote} is not in the manifest`);
  }
  try {
    const mod = await withTimeout(loadRemote<LifeCycles>(`${remote}/app`), REMOTE_LOAD_TIMEOUT_MS, remote);
    if (!mod || typeof (mod as LifeCycles).mount !== 'function') throw new Error(`${remote}/app has no lifecycles`);
    reportRemote(manifest, remote, 'loaded');
    return reporting(remote, mod as LifeCycles);
  } catch (err) {
    console.error(`Could not load ${remote}`, err);
    reportRemote(manifest, remote, 'load_failed');
    markFailed(remote);
    throw err;
  }
}

function outlet(): HTMLElement {
  return document.getElementById('mfe-outlet') ?? document.body;
}

/**
 * One single-spa application per remote, active on any of its routes. Moving between a remote's
 * own pages (/profile → /size) keeps it mounted: its router switches the page and reports one
 * screen view. (An application per route remounted the remote on each such move, and the
 * outgoing copy reported the new page's screen view as well as the incoming one.)
 */
function registerRoutes(): void {
  const existing = new Set(getAppNames());
  for (const remote of Object.keys(MFE_ROUTES)) {
    if (existing.has(remote)) continue;
    registerApplication({
      name: remote,
      app: () => loadLifecycles(remote),
      activeWhen: (location) =>
        remoteStatus.get().manifest === 'ready' && authStore.get().authenticated && remoteForPath(location.pathname)?.remote === remote,
      customProps: () => ({ domElementGetter: outlet }),
    });
  }
}

function applyManifest(next: MfeManifest): void {
  const added = [];
  const changed = [];
  for (const [name, { entry }] of Object.entries(next)) {
    if (!manifest[name]) added.push({ name, entry });
    else if (manifest[name].entry !== entry) changed.push({ name, entry });
  }
  manifest = next;
  if (added.length) registerRemotes(added);
  if (changed.length) registerRemotes(changed, { force: true });
}

async function boot(): Promise<void> {
  remoteStatus.set({ manifest: 'loading', failed: [] });
  try {
    const next = await fetchManifest();
    await nextTask();
    applyManifest(next);
    await nextTask();
    remoteStatus.set({ manifest: 'ready' });
  } catch (err) {
    console.error('Could not load /mfe-manifest.json', err);
    remoteStatus.set({ manifest: 'failed' });
  }
  triggerAppChange();
  // single-spa retries an app that failed to load only 200 ms after the failure.
  setTimeout(() => triggerAppChange(), 250);
}

/** Resolves once the manifest is in; rejects when it could not be read (a retry reads it again). */
function manifestReady(): Promise<void> {
  if (remoteStatus.get().manifest === 'failed') void boot();
  return new Promise((resolve, reject) => {
    const settle = (): boolean => {
      const { manifest: state } = remoteStatus.get();
      if (state === 'ready') resolve();
      else if (state === 'failed') reject(new Error('/mfe-manifest.json could not be loaded'));
      else return false;
      return true;
    };
    if (settle()) return;
    const stop = remoteStatus.subscribe(() => {
      if (settle()) stop();
    });
  });
}

/**
 * The runtime's <RemoteParcel> mounts through this: a remote's ./app lifecycles as a single-spa
 * parcel in `domElement`, with `props` (e.g. `{ view: 'summary' }`). single-spa names each parcel
 * (props.name, "parcel-N"), so one remote can be on a page more than once.
 */
function mountParcel(remote: string, domElement: HTMLElement, props: ParcelProps): ParcelHandle {
  let parcel: Parcel | null = null;
  let cancelled = false;
  let current = props;
  // Each step in a task of its own: loading a remote is much of the first screen's script work.
  const mounted = (async () => {
    await manifestReady();
    await nextTask();
    const config = await loadLifecycles(remote);
    await nextTask();
    if (cancelled) return;
    const mountedWith = current;
    const p = mountRootParcel(config as never, { ...mountedWith, domElement } as never);
    parcel = p;
    await p.mountPromise;
    // Props that changed while it was mounting.
    if (current !== mountedWith && !cancelled && p.update) await p.update({ ...current, domElement } as never);
  })();
  return {
    mounted,
    update(next) {
      current = next;
      if (parcel?.update && parcel.getStatus() === 'MOUNTED') void parcel.update({ ...next, domElement } as never);
    },
    unmount() {
      cancelled = true;
      const p = parcel;
      if (!p) return;
      // A parcel still mounting is taken off once it is on.
      void p.mountPromise.then(
        () => (p.getStatus() === 'MOUNTED' ? p.unmount() : undefined),
        () => undefined,
      );
    },
  };
}

/**
 * Starts single-spa once the layout (with #mfe-outlet) is on the page: the routes, then the
 * parcels, then the remote list, each in a task of its own.
 */
export async function startFederation(): Promise<void> {
  await nextTask();
  registerRoutes();
  setRetryHandler(() => void boot());
  authStore.subscribe(() => triggerAppChange());
  start({ urlRerouteOnly: true });
  await nextTask();
  setParcelMounter(mountParcel);
  await boot();
}
