// Every micro-frontend's ./app (what its webpack config exposes): the single-spa lifecycles that
// mount its Root, as an application on its routes (into #mfe-outlet) or as a parcel through the
// runtime's <RemoteParcel> (props such as `{ view }`). Written by hand rather than with
// single-spa-react: a tab with one root needs only this, and a parcel on /home loads less for it.
// A build-time package: each micro-frontend bundles its copy.
import { Component, useEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot, type Root as ReactRoot } from 'react-dom/client';
import { ErrorState } from '@portal/runtime';
import { BUILT_RANGE, compatible, drawRefusal, providedRuntimeVersion } from './runtime-compat';

/** What single-spa passes to an application's or a parcel's lifecycles (and the page's props). */
export interface MfeProps {
  name: string;
  domElement?: HTMLElement;
  domElementGetter?: () => HTMLElement;
  /**
   * From the shell (newer shells only): tells it this tab failed to draw (`render_failed`: its
   * error boundary caught an error) or refused to mount (`incompatible`: version skew).
   */
  reportProblem?: (outcome: 'render_failed' | 'incompatible') => void;
  [prop: string]: unknown;
}

export interface MfeLifecycles {
  bootstrap: () => Promise<void>;
  mount: (props: MfeProps) => Promise<void>;
  /** New props from the page (e.g. a parcel's other view). */
  update: (props: MfeProps) => Promise<void>;
  unmount: (props: MfeProps) => Promise<void>;
}

export interface MfeOptions<P> {
  /** Root's props from single-spa's (a parcel's `view`, ...); none by default. */
  rootProps?: (props: MfeProps) => P;
  /**
   * 'element' (default): React renders into the element single-spa gives (as single-spa-react
   * did for the route tabs). 'own': into a <div id="single-spa-application:NAME"> added to it and
   * removed on unmount, so one element can hold several parcels.
   */
  container?: 'element' | 'own';
  /**
   * true (default): mount and update resolve once React has committed the tree (as with
   * single-spa-react: the shell's route progress bar stays up until the tab is on the page).
   * false: as soon as the render is asked for (a parcel whose host page does not wait for it).
   */
  awaitCommit?: boolean;
  /**
   * The @portal/runtime range this tab needs (default: its package.json's, written in by the
   * build). When the shell's runtime does not satisfy it, the tab refuses to mount and says so
   * in its outlet (./runtime-compat).
   */
  requires?: string | null;
}

class ErrorBoundary extends Component<{ children: ReactNode; onError?: () => void }, { error: Error | null }> {
  constructor(props: { children: ReactNode; onError?: () => void }) {
    super(props);
    this.state = { error: null };
  }
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch() {
    this.props.onError?.();
  }
  render() {
    return this.state.error ? <ErrorState error={this.state.error} /> : this.props.children;
  }
}

/** Calls `onCommit` once React has put the tree on the page (mount and update resolve then). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(() => onCommit());
  return children;
}

/** The lifecycles for `Root`: every mount (by its single-spa name) has its own React root. */
export function createMfe<P extends object>(Root: ComponentType<P>, options: MfeOptions<P> = {}): MfeLifecycles {
  const { rootProps = () => ({}) as P, container: where = 'element', awaitCommit = true, requires = BUILT_RANGE } = options;
  const mounted = new Map<string, { root: ReactRoot; container: HTMLElement; own: boolean }>();
  const refused = new Map<string, HTMLElement>();

  const render = (root: ReactRoot, props: MfeProps) =>
    new Promise<void>((resolve) => {
      const tree = (
        <ErrorBoundary onError={() => props.reportProblem?.('render_failed')}>
          <Root {...rootProps(props)} />
        </ErrorBoundary>
      );
      if (!awaitCommit) {
        root.render(tree);
        resolve();
      } else root.render(<Committed onCommit={resolve}>{tree}</Committed>);
    });

  return {
    async bootstrap() {},
    async mount(props) {
      const host = props.domElement ?? props.domElementGetter?.();
      if (!host) throw new Error(`${props.name}: no DOM element to mount into`);
      const provided = providedRuntimeVersion();
      if (!compatible(provided, requires)) {
        console.error(`${props.name}: needs @portal/runtime ${requires}, the shell provides ${provided}`);
        refused.set(props.name, drawRefusal(host, props.name, provided, String(requires)));
        props.reportProblem?.('incompatible');
        return;
      }
      let container = host;
      if (where === 'own') {
        container = document.createElement('div');
        container.id = `single-spa-application:${props.name}`;
        host.appendChild(container);
      }
      const root = createRoot(container);
      mounted.set(props.name, { root, container, own: where === 'own' });
      await render(root, props);
    },
    async update(props) {
      const entry = mounted.get(props.name);
      if (entry) await render(entry.root, props);
    },
    async unmount(props) {
      refused.get(props.name)?.remove();
      refused.delete(props.name);
      const entry = mounted.get(props.name);
      if (!entry) return;
      mounted.delete(props.name);
      entry.root.unmount();
      if (entry.own) entry.container.remove();
    },
  };
}

export { refusalText } from './runtime-compat';
