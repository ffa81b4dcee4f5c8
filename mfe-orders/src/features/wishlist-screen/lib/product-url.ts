// Where a list item's product opens: the tenant's `components.connections.variantUrl` (for an
// item naming a variant) or `productUrl`, each an https URL with `{id}` in it. List items carry
// only ids, so without a pattern an item is not a link.
import type { ListItem, PortalConfig } from '@portal/runtime';

interface UrlPatterns {
  productUrl?: unknown;
  variantUrl?: unknown;
}

function fill(pattern: unknown, id: string): string | null {
  if (typeof pattern !== 'string' || !id || !pattern.startsWith('https://') || !pattern.includes('{id}')) return null;
  return pattern.split('{id}').join(encodeURIComponent(id));
}

/** The product page of `item`, or null when the tenant names none for it. */
export function productUrl(
  item: Pick<ListItem, 'product_id' | 'product_variant_id'>,
  config: PortalConfig | null | undefined,
): string | null {
  const components = (config as { components?: Record<string, unknown> } | null | undefined)?.components;
  const patterns = (components?.connections ?? {}) as UrlPatterns;
  return fill(patterns.variantUrl, item.product_variant_id) ?? fill(patterns.productUrl, item.product_id);
}
