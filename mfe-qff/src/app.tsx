import { Component, type ReactNode } from 'react';
import { createRoot, type Root as ReactRoot } from 'react-dom/client';
import { ErrorState } from '@portal/runtime';
import { Root } from './Root';

// single-spa lifecycles exposed to the shell as ./app (it mounts them as a parcel on /home).
// Written by hand rather than with single-spa-react: a parcel with one root needs only this,
// and /home's first load is smaller for it.

interface ParcelProps {
  name: string;
  domElement?: HTMLElement;
  domElementGetter?: () => HTMLElement;
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorState error={this.state.error} /> : this.props.children;
  }
}

const mounted = new Map<string, { root: ReactRoot; container: HTMLElement }>();

export async function bootstrap(): Promise<void> {}

export async function mount(props: ParcelProps): Promise<void> {
  const host = props.domElement ?? props.domElementGetter?.();
  if (!host) throw new Error(`${props.name}: no DOM element to mount into`);
  const container = document.createElement('div');
  container.id = `single-spa-application:${props.name}`;
  host.appendChild(container);
  const root = createRoot(container);
  root.render(
    <ErrorBoundary>
      <Root />
    </ErrorBoundary>,
  );
  mounted.set(props.name, { root, container });
}

export async function unmount(props: ParcelProps): Promise<void> {
  const entry = mounted.get(props.name);
  if (!entry) return;
  mounted.delete(props.name);
  entry.root.unmount();
  entry.container.remove();
}

export async function update(): Promise<void> {}
