import type { QueryClient } from '@tanstack/react-query';

/** What the points balance decides: the ledger, expiring points, the tier, what is affordable. */
const FOLLOWERS = ['points', 'expiring', 'tiers', 'catalogue'];

/**
 * Whenever this client's balance is marked stale (a redemption here, or a claim credited in
 * My Orders and announced as 'balances'), the data that follows from it is marked stale too, so
 * the page never shows a new balance beside an old history or an old "You need N more points".
 * Runs after the code that marked the balance has marked what it knew of (a microtask later),
 * and keeps any fetch already on its way: nothing is fetched twice. Returns the unsubscribe.
 */
export function followBalance(client: QueryClient): () => void {
  let scheduled = false;
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'invalidate' || event.query.queryKey[0] !== 'balances') return;
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      for (const key of FOLLOWERS) void client.invalidateQueries({ queryKey: [key] }, { cancelRefetch: false });
    });
  });
}
