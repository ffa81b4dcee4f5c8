import { useId, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, Loading, useAuth } from '@portal/runtime';
import { Problem } from '../../../components/Problem';
import { useBalances } from '../../shared/hooks/use-qff';
import { formatNumber } from '@portal/kit/format';
import type { QffLinked } from '../../shared/api/types';
import { ConvertDialog, type ConversionPlan } from './ConvertDialog';

/**
 * The points typed, or null unless they are a whole number of blocks (`blockSize`, `2 × blockSize`,
 * …) from one block to `maxPoints`. The member chooses points; the airline's rule is in blocks.
 */
export function parsePoints(value: string, blockSize: number, maxPoints: number): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= blockSize && n <= maxPoints && n % blockSize === 0 ? n : null;
}

/** A block more or fewer than `value` (from its nearest whole block), from one block to `maxPoints`. */
export function stepPoints(value: string, by: 1 | -1, blockSize: number, maxPoints: number): number {
  const typed = /^\s*\d+\s*$/.test(value) ? Number(value) : by > 0 ? 0 : maxPoints + blockSize;
  const base = by > 0 ? Math.floor(typed / blockSize) : Math.ceil(typed / blockSize);
  return Math.min(maxPoints, Math.max(blockSize, (base + by) * blockSize));
}

/**
 * Points to airline points, in whole blocks (the tenant's rule from the status answer): the
 * member's balance, a stepper in points (1,000, 2,000, … a block at a time, up to what the balance
 * allows), a preview of what goes, what comes and what stays, then the confirmation dialog, which
 * sends the points (POST /api/qff/redeem takes points, a whole number of blocks). Not offered to
 * staff viewing the account.
 */
export function ConvertPoints({ status }: { status: QffLinked }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useId();
  const { impersonating } = useAuth();
  const rule = status.redemption;
  const balances = useBalances();
  const [value, setValue] = useState<string | null>(null);
  const [plan, setPlan] = useState<ConversionPlan | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const points = (n: number) => t('points.amount', { count: n, points: formatNumber(n, lang) });
  const airline = (n: number) => t('airline.amount', { count: n, points: formatNumber(n, lang) });
  const blockSize = rule.block_size;
  const perBlock = rule.airline_points_per_block;
  const balance = balances.data?.data.points;

  let body;
  if (balances.isPending) body = <Loading />;
  else if (balance === undefined) body = <Problem error={balances.error} onRetry={() => void balances.refetch()} />;
  else if (impersonating) {
    body = (
      <>
        <p>{t('convert.balance', { balance: points(balance) })}</p>
        <p className="notice card">{t('readOnly')}</p>
      </>
    );
  } else {
    const maxPoints = Math.floor(balance / blockSize) * blockSize;
    // One block until the member chooses.
    const typed = value ?? String(blockSize);
    const chosen = parsePoints(typed, blockSize, maxPoints);
    const fieldId = `${id}-points`;
    const step = (by: 1 | -1) => setValue(String(stepPoints(typed, by, blockSize, maxPoints)));
    const open = (e: MouseEvent<HTMLButtonElement>) => {
      if (chosen === null) return;
      opener.current = e.currentTarget;
      const blocks = chosen / blockSize;
      setPlan({ blocks, points: chosen, airlinePoints: blocks * perBlock, balance, qffNumber: status.qff_number });
    };
    const limits = { size: points(blockSize), max: points(maxPoints) };
    body = (
      <>
        <p>{t('convert.balance', { balance: points(balance) })}</p>
        {maxPoints < blockSize ? (
          <p className="qff-short">{t('convert.notEnough', { points: points(blockSize) })}</p>
        ) : (
          <>
            <div className="field">
              <label htmlFor={fieldId}>{t('convert.amount')}</label>
              <div className="qff-stepper">
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={t('convert.fewer', { size: points(blockSize) })}
                  aria-controls={fieldId}
                  aria-disabled={chosen !== null && chosen <= blockSize ? true : undefined}
                  onClick={() => step(-1)}
                >
                  <span aria-hidden="true">−</span>
                </button>
                <input
                  id={fieldId}
                  type="number"
                  inputMode="numeric"
                  min={blockSize}
                  max={maxPoints}
                  step={blockSize}
                  value={typed}
                  onChange={(e) => setValue(e.target.value)}
                  aria-invalid={chosen === null ? true : undefined}
                  aria-describedby={`${fieldId}-hint ${fieldId}-error`}
                />
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={t('convert.more', { size: points(blockSize) })}
                  aria-controls={fieldId}
                  aria-disabled={chosen !== null && chosen >= maxPoints ? true : undefined}
                  onClick={() => step(1)}
                >
                  <span aria-hidden="true">+</span>
                </button>
              </div>
              <span id={`${fieldId}-hint`} className="field-hint">
                {t('convert.amountHint', limits)}
              </span>
              <FieldError id={`${fieldId}-error`} message={chosen === null ? t('convert.amountInvalid', limits) : null} />
            </div>
            <div aria-live="polite">
              {chosen !== null && (
                <dl className="dl qff-sums" aria-label={t('convert.preview')}>
                  <dt>{t('convert.youConvert')}</dt>
                  <dd>{points(chosen)}</dd>
                  <dt>{t('convert.youGet')}</dt>
                  <dd>
                    <strong>{airline((chosen / blockSize) * perBlock)}</strong>
                  </dd>
                  <dt>{t('convert.stay')}</dt>
                  <dd>{points(balance - chosen)}</dd>
                </dl>
              )}
            </div>
            <div className="qff-actions">
              <button
                type="button"
                className={`btn${chosen === null ? ' btn-off' : ''}`}
                aria-disabled={chosen === null ? true : undefined}
                onClick={open}
              >
                {t('convert.open')}
              </button>
            </div>
          </>
        )}
      </>
    );
  }

  return (
    <section className="qff-convert" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('convert.title')}</h3>
      <p className="qff-rate">
        <strong>{t('convert.rate', { points: points(blockSize), airline: airline(perBlock) })}</strong>
      </p>
      {body}
      {plan && <ConvertDialog plan={plan} opener={opener.current} onClose={() => setPlan(null)} />}
    </section>
  );
}
