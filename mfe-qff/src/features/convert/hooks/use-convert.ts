import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { afterQffWrite, qffKey } from '../../shared/hooks/use-qff';
import { useTrack } from '../../../lib/analytics';
import { getConversions, redeemPoints } from '../api/convert';
import type { Conversion } from '../api/types';

/** While a conversion waits for the airline, the list is asked for again this often. */
export const PENDING_POLL_MS = 20_000;

/**
 * The member's conversions. While one is pending it is polled; when one settles, everything it
 * changed (the balances, the airline's activity) is fetched again.
 */
export function useConversions() {
  const { profile_id } = useAuth();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: qffKey.conversions(profile_id),
    queryFn: ({ signal }) => getConversions(signal),
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'pending') ? PENDING_POLL_MS : false),
  });
  const before = useRef<string[] | null>(null);
  // The ids are what matters, not the array's identity: the effect runs when they change.
  const key = (query.data?.data ?? [])
    .filter((c) => c.status === 'pending')
    .map((c) => c.id)
    .join(',');
  useEffect(() => {
    const pending = key ? key.split(',') : [];
    const was = before.current;
    before.current = pending;
    if (was && was.some((id) => !pending.includes(id))) afterQffWrite(client);
  }, [key, client]);
  return query;
}

export interface RedeemInput {
  points: number;
  /** One per confirmation, the same for any retry of it. */
  idempotencyKey: string;
}

/**
 * Converts points. A completed or pending conversion shows the member's new balance at once and
 * refreshes everything it changed (in every micro-frontend); so does a failed one (its points came
 * back) and a 409 (this page's numbers were out of date).
 */
export function useRedeemPoints() {
  const client = useQueryClient();
  const track = useTrack();
  return useMutation({
    mutationFn: ({ points, idempotencyKey }: RedeemInput) => redeemPoints(points, idempotencyKey),
    onSuccess: ({ data }: { data: Conversion }) => {
      afterQffWrite(client, { balance: typeof data.balance === 'number' ? data.balance : undefined });
      track('qff_convert', { points: data.points, airline_points: data.airline_points, status: data.status });
    },
  });
}
