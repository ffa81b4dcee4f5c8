import { Component, type ReactNode } from 'react';
import { createRoot, type Root as ReactRoot } from 'react-dom/client';
import { ErrorState } from '@portal/runtime';
import { Root, isQffView, type QffView } from './Root';

// single-spa lifecycles exposed to the shell as ./app, mounted as parcels through the runtime's
// <RemoteParcel remote="mfe_qff" props={{ view }} />: the summary on /home, the full view in
// Rewards, the identity view in My Details. Written by hand rather than with single-spa-react:
// a parcel with one root needs only this, and /home's first load is smaller for it.

interface ParcelProps {
  name: string;
  domElement?: HTMLElement;
  domElementGetter?: () => HTMLElement;
  view?: unknown;
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  constructor(props: { children: ReactNode }) {
    super(props);
    this.state = { error: null };
  }
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorState error={this.state.error} /> : this.props.children;
  }
}

const mounted = new Map<string, { root: ReactRoot; container: HTMLElement }>();

const viewOf = (props: ParcelProps): QffView => (isQffView(props.view) ? props.view : 'summary');

function render(root: ReactRoot, props: ParcelProps): void {
  root.render(
    <ErrorBoundary>
      <Root view={viewOf(props)} />
    </ErrorBoundary>,
  );
}

export async function bootstrap(): Promise<void> {}

export async function mount(props: ParcelProps): Promise<void> {
  const host = props.domElement ?? props.domElementGetter?.();
  if (!host) throw new Error(`${props.name}: no DOM element to mount into`);
  const container = document.createElement('div');
  container.id = `single-spa-application:${props.name}`;
  host.appendChild(container);
  const root = createRoot(container);
  render(root, props);
  mounted.set(props.name, { root, container });
}

/** New props from the page (e.g. another view). */
export async function update(props: ParcelProps): Promise<void> {
  const entry = mounted.get(props.name);
  if (entry) render(entry.root, props);
}

export async function unmount(props: ParcelProps): Promise<void> {
  const entry = mounted.get(props.name);
  if (!entry) return;
  mounted.delete(props.name);
  entry.root.unmount();
  entry.container.remove();
}
