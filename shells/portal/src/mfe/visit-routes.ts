/**
 * The shell's own public screens for stores and events (spec 2): `/loc/{handle}` (also `/loc`
 * or `/` with `?location=`, `?location_id=` or `?handle=`) and `/event/{m}` (also `?mode=event&m=`).
 * Open without signing in: checking in or signing up is how a visitor signs in.
 */
export function visitKindFor(path: string, search: string): 'location' | 'event' | null {
  if (/^\/loc(\/[^/]+)?$/.test(path)) return 'location';
  if (/^\/event\/[^/]+$/.test(path)) return 'event';
  if (path === '/' || path === '/event') {
    const q = new URLSearchParams(search);
    if (q.get('mode') === 'event' && q.get('m')) return 'event';
    if (path === '/' && (q.get('location') || q.get('location_id') || q.get('handle'))) return 'location';
  }
  return null;
}
