// What every micro-frontend's Root is made of: lazily loaded screens and the links between its
// pages. Each MFE bundles its own copy (a build-time package, like mfe-providers).
import { Suspense, lazy, type ComponentType } from 'react';
import { Link, Loading, TAB_CLICK_EVENTS, track, usePathname, type RouteDef } from '@portal/runtime';

/** Each screen is its own chunk: opening one route downloads only that screen's code. */
export function screen(load: () => Promise<ComponentType>): RouteDef['Component'] {
  const Screen = lazy(() => load().then((Component) => ({ default: Component })));
  return () => (
    <Suspense fallback={<Loading />}>
      <Screen />
    </Suspense>
  );
}

/**
 * Links between an MFE's pages, the current one marked; a click fires the spec's click event for
 * that page where it has one (spec 9: my_details_click, my_orders_click, ...).
 */
export function SubNav({ label, items }: { label: string; items: { href: string; label: string }[] }) {
  const path = usePathname();
  return (
    <nav className="subnav" aria-label={label}>
      {items.map((item) => (
        <Link
          key={item.href}
          href={item.href}
          aria-current={path === item.href ? 'page' : undefined}
          onClick={() => TAB_CLICK_EVENTS[item.href] && track(TAB_CLICK_EVENTS[item.href])}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
