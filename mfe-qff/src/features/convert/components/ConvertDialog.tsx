import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { BdiTrans, isHttpError, signInAgain } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { newIdempotencyKey } from '@portal/kit/idempotency';
import { Icon } from '../../../components/Icon';
import { afterQffWrite } from '../../shared/hooks/use-qff';
import { fieldErrors, isTransient, needsSignIn, serverSentence } from '../../../lib/errors';
import { useTrack } from '../../../lib/analytics';
import { formatNumber } from '@portal/kit/format';
import { useRedeemPoints } from '../hooks/use-convert';
import type { Conversion } from '../api/types';
import { WriteButton } from '@portal/kit/offline';

export interface ConversionPlan {
  blocks: number;
  points: number;
  airlinePoints: number;
  /** The member's points before converting. */
  balance: number;
  qffNumber: string;
}

type Outcome =
  /** 200 completed or 202 pending: the receipt. */
  | { kind: 'done'; conversion: Conversion }
  /** 422: the airline refused; the held points were given back. Final. */
  | { kind: 'failed'; message: string }
  /** 409, 400, 403 or a field refusal: told as the server words it; a retry only where it can help. */
  | { kind: 'refused'; message: string; retry: boolean }
  /** 403 errors.session 'reauthenticate': sign in again first. */
  | { kind: 'signIn'; message: string }
  /** 503 (the partner down), a server fault or no answer: nothing happened, or the same key finds out. */
  | { kind: 'transient'; message: string };

/**
 * Asks before converting: what goes, what comes, what stays. Confirm sends ONE request (the button
 * is busy while it runs) with this confirmation's Idempotency-Key, and a retry sends the same key,
 * so a conversion whose answer was lost is never made twice. Then the receipt (completed), the
 * explanation of a pending one, or why it did not go through.
 */
export function ConvertDialog({ plan, opener, onClose }: { plan: ConversionPlan; opener: HTMLElement | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useId();
  const client = useQueryClient();
  const track = useTrack();
  const points = (n: number) => t('points.amount', { count: n, points: formatNumber(n, lang) });
  const airline = (n: number) => t('airline.amount', { count: n, points: formatNumber(n, lang) });
  // One key per confirmation: made when the dialog opens, reused by every retry of it.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const redeem = useRedeemPoints();
  // Set synchronously: a second click before the next render sends nothing.
  const inFlight = useRef(false);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const doneTitle = useRef<HTMLHeadingElement>(null);
  const done = outcome?.kind === 'done' ? outcome.conversion : null;
  useEffect(() => {
    if (done) doneTitle.current?.focus();
  }, [done]);

  const refusal = (err: unknown): Outcome => {
    const sentence = serverSentence(err);
    if (needsSignIn(err)) return { kind: 'signIn', message: sentence ?? t('convert.signInText') };
    if (isTransient(err)) return { kind: 'transient', message: sentence ?? t('convert.transient') };
    const status = isHttpError(err) ? err.status : 0;
    const fields = fieldErrors(err, ['points', 'idempotency_key'] as const);
    if (status === 422 && !fields.points && !fields.idempotency_key) {
      return { kind: 'failed', message: sentence ?? t('convert.failedText') };
    }
    // 409: not enough points, not linked, conversion off, or the first try still running (where
    // the same key, a moment later, gets the first answer).
    return { kind: 'refused', message: fields.points ?? sentence ?? t('convert.refused'), retry: status === 409 };
  };

  const confirm = () => {
    if (inFlight.current || done) return;
    inFlight.current = true;
    setSending(true);
    setOutcome(null);
    redeem.mutate(
      { points: plan.points, idempotencyKey },
      {
        onSuccess: ({ data }) => setOutcome({ kind: 'done', conversion: data }),
        onError: (err) => {
          const next = refusal(err);
          setOutcome(next);
          if (next.kind === 'failed') track('qff_convert', { points: plan.points, airline_points: plan.airlinePoints, status: 'failed' });
          // The points came back (failed) or this page's numbers were out of date (409).
          if (next.kind === 'failed' || next.kind === 'refused') afterQffWrite(client);
        },
        onSettled: () => {
          inFlight.current = false;
          setSending(false);
        },
      },
    );
  };

  if (done) {
    const completed = done.status === 'completed';
    return (
      <Dialog labelledBy={`${id}-title`} onClose={onClose} returnFocus={opener} className="qff-dialog">
        <h2 id={`${id}-title`} ref={doneTitle} tabIndex={-1} className={`qff-receipt__title qff-receipt__title--${done.status}`}>
          <Icon name={completed ? 'check' : 'clock'} />
          {completed ? t('convert.doneTitle') : t('convert.pendingTitle')}
        </h2>
        {completed ? (
          <p>
            <BdiTrans k="convert.doneText" values={{ airline: airline(done.airline_points), number: done.qff_number }} />
          </p>
        ) : (
          <p>{t('convert.pendingText', { points: points(done.points) })}</p>
        )}
        {typeof done.balance === 'number' && <p>{t('convert.newBalance', { balance: points(done.balance) })}</p>}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            {t('convert.close')}
          </button>
        </div>
      </Dialog>
    );
  }

  const final = outcome?.kind === 'failed' || (outcome?.kind === 'refused' && !outcome.retry);
  const retry = outcome?.kind === 'transient' || (outcome?.kind === 'refused' && outcome.retry);
  return (
    <Dialog labelledBy={`${id}-title`} describedBy={`${id}-sums`} onClose={onClose} returnFocus={opener} className="qff-dialog">
      <h2 id={`${id}-title`}>{t('convert.confirmTitle', { points: points(plan.points) })}</h2>
      <dl className="dl qff-sums" id={`${id}-sums`}>
        <dt>{t('convert.youConvert')}</dt>
        <dd>{points(plan.points)}</dd>
        <dt>{t('convert.youGet')}</dt>
        <dd>
          <strong>{airline(plan.airlinePoints)}</strong>
        </dd>
        <dt>{t('convert.to')}</dt>
        <dd>
          <span dir="ltr" translate="no">
            {plan.qffNumber}
          </span>
        </dd>
        <dt>{t('convert.stay')}</dt>
        <dd>{points(plan.balance - plan.points)}</dd>
      </dl>
      <p className="muted">{t('convert.final')}</p>
      {outcome && outcome.kind !== 'done' && (
        <div className="qff-problem" role="alert">
          {outcome.kind === 'failed' && <p className="qff-problem__title">{t('convert.failedTitle')}</p>}
          <p>{outcome.message}</p>
        </div>
      )}
      <div className="dialog__actions">
        <button type="button" className="btn btn-secondary" onClick={onClose} data-autofocus>
          {final || outcome?.kind === 'signIn' ? t('convert.close') : t('convert.cancel')}
        </button>
        {outcome?.kind === 'signIn' ? (
          <button type="button" className="btn" onClick={() => void signInAgain()}>
            {t('convert.signIn')}
          </button>
        ) : (
          !final && (
            <WriteButton className="btn" onClick={confirm} disabled={sending} aria-busy={sending || undefined}>
              {sending ? t('convert.converting') : retry ? t('convert.retry') : t('convert.confirm')}
            </WriteButton>
          )
        )}
      </div>
    </Dialog>
  );
}
