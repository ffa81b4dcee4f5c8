// Home's points summary, read from the five routes Rewards and Offers already use, asked for at
// once (the browser sends them side by side), each allowed to fail alone: a part that fails shows
// as unavailable, the rest still shows. What was read is kept in the member's record
// (LOYALTY_MEMBER_KEY, cleared at sign-out and at the end of a staff view) with its time, so Home
// shows the last known summary offline, as the card shows its last known balance.
import {
  LOYALTY_MEMBER_KEY,
  http,
  type Balances,
  type BenefitList,
  type ExpiringList,
  type RewardList,
  type TierProgressResponse,
} from '@portal/runtime';
import { readMemberRecord, rememberBalance } from '@portal/kit/member-record';
import type { Translations } from '@portal/kit/content';

/** At most this many vouchers are named on Home; the rest are behind "See all". */
export const VOUCHERS_SHOWN = 3;

export interface HomeSummary {
  points: number | null;
  /** The tier names in the default language, with their translations (`names`, `nextNames`). */
  tier: {
    name: string;
    next: string | null;
    needed: number;
    percent: number;
    measure: string;
    names?: Translations;
    nextNames?: Translations;
  } | null;
  /** The next points to expire, or null when none are due (undefined: not known). */
  expiring: { points: number; date: string } | null | undefined;
  /** Ready-to-use vouchers (all of them counted, the first few named). */
  rewards: { count: number; shown: { id: number; name: string; translations?: Translations }[] } | undefined;
  /** Offers not yet activated or used. */
  offers: number | undefined;
}

export interface KeptSummary {
  summary: HomeSummary;
  /** When it was read (ms since the epoch). */
  at: number;
}

const settled = <T>(r: PromiseSettledResult<T>): T | undefined => (r.status === 'fulfilled' ? r.value : undefined);

/** "New" offers: those the member has not activated yet. */
function newOffers(list: BenefitList): number {
  return list.data.filter((o) => !o.activated).length;
}

export function summarise(
  balances: Balances | undefined,
  progress: TierProgressResponse | undefined,
  expiring: ExpiringList | undefined,
  rewards: RewardList | undefined,
  offers: BenefitList | undefined,
): HomeSummary {
  const p = progress?.data;
  const ready = rewards?.data.filter((r) => r.status === 'available');
  const next = expiring?.data.filter((e) => e.points > 0).sort((a, b) => a.date.localeCompare(b.date))[0];
  return {
    points: balances ? balances.data.points : null,
    tier: p
      ? {
          name: p.current.name,
          next: p.next?.name ?? null,
          names: p.current.translations,
          nextNames: p.next?.translations,
          needed: p.needed,
          percent: Math.max(0, Math.min(100, p.progress_percent)),
          measure: p.measure,
        }
      : null,
    expiring: expiring ? (next ? { points: next.points, date: next.date } : null) : undefined,
    rewards: ready && {
      count: ready.length,
      shown: ready.slice(0, VOUCHERS_SHOWN).map((r) => ({ id: r.id, name: r.name, translations: r.translations })),
    },
    offers: offers ? newOffers(offers) : undefined,
  };
}

/** Nothing at all could be read. */
export function isEmpty(s: HomeSummary): boolean {
  return s.points === null && s.tier === null && s.expiring === undefined && s.rewards === undefined && s.offers === undefined;
}

/** Reads the summary afresh; rejects only when every part failed. */
export async function loadSummary(signal: AbortSignal): Promise<HomeSummary> {
  const get = <T>(path: string) => http<T>(path, { signal, quiet: true });
  const [b, t, e, r, o] = await Promise.allSettled([
    get<Balances>('/api/profile/balances'),
    get<TierProgressResponse>('/api/profile/tiers/progress'),
    get<ExpiringList>('/api/profile/points/expiring'),
    get<RewardList>('/api/profile/rewards'),
    get<BenefitList>('/api/profile/benefits'),
  ]);
  const summary = summarise(settled(b), settled(t), settled(e), settled(r), settled(o));
  if (isEmpty(summary)) throw (b as PromiseRejectedResult).reason;
  return summary;
}

/** The last summary kept for this member, if any. */
export function readKept(profileId: string | null | undefined): KeptSummary | null {
  const record = readMemberRecord(profileId) as { home?: KeptSummary } | null;
  const kept = record?.home;
  return kept && typeof kept.at === 'number' && kept.summary ? kept : null;
}

/** Keeps a summary just read (and its balance for the card), merged into the member's record. */
export function keep(profileId: string | null | undefined, summary: HomeSummary, at = Date.now()): void {
  if (!profileId) return;
  if (summary.points !== null) rememberBalance(profileId, summary.points, at);
  const record = readMemberRecord(profileId) ?? { profile_id: profileId };
  try {
    localStorage.setItem(LOYALTY_MEMBER_KEY, JSON.stringify({ ...record, home: { summary, at } satisfies KeptSummary }));
  } catch {
    /* storage blocked or full: Home still shows what it read */
  }
}
