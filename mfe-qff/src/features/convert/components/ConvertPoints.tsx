import { useId, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, Loading, useAuth } from '@portal/runtime';
import { Problem } from '../../../components/Problem';
import { useBalances } from '../../../api/queries';
import { formatNumber } from '@portal/kit/format';
import type { QffLinked } from '../../../api/types';
import { ConvertDialog, type ConversionPlan } from './ConvertDialog';

/** The number of blocks typed, or null when it is not a whole number from 1 to `max`. */
export function parseBlocks(value: string, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= max ? n : null;
}

/**
 * Points to airline points, in whole blocks (the tenant's rule from the status answer): the
 * member's balance, a stepper for the number of blocks, a preview of what goes, what comes and
 * what stays, then the confirmation dialog. Not offered to staff viewing the account.
 */
export function ConvertPoints({ status }: { status: QffLinked }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useId();
  const { impersonating } = useAuth();
  const rule = status.redemption;
  const balances = useBalances();
  const [value, setValue] = useState('1');
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
    const max = Math.floor(balance / blockSize);
    const blocks = parseBlocks(value, max);
    const fieldId = `${id}-blocks`;
    const step = (by: number) => {
      const current = parseBlocks(value, max) ?? (by > 0 ? 0 : max + 1);
      setValue(String(Math.min(max, Math.max(1, current + by))));
    };
    const open = (e: MouseEvent<HTMLButtonElement>) => {
      if (blocks === null) return;
      opener.current = e.currentTarget;
      setPlan({ blocks, points: blocks * blockSize, airlinePoints: blocks * perBlock, balance, qffNumber: status.qff_number });
    };
    body = (
      <>
        <p>{t('convert.balance', { balance: points(balance) })}</p>
        {max < 1 ? (
          <p className="qff-short">{t('convert.notEnough', { points: points(blockSize) })}</p>
        ) : (
          <>
            <div className="field">
              <label htmlFor={fieldId}>{t('convert.blocks', { size: points(blockSize) })}</label>
              <div className="qff-stepper">
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={t('convert.fewer')}
                  aria-controls={fieldId}
                  aria-disabled={blocks !== null && blocks <= 1 ? true : undefined}
                  onClick={() => step(-1)}
                >
                  <span aria-hidden="true">−</span>
                </button>
                <input
                  id={fieldId}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={max}
                  step={1}
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  aria-invalid={blocks === null ? true : undefined}
                  aria-describedby={`${fieldId}-hint ${fieldId}-error`}
                />
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={t('convert.more')}
                  aria-controls={fieldId}
                  aria-disabled={blocks !== null && blocks >= max ? true : undefined}
                  onClick={() => step(1)}
                >
                  <span aria-hidden="true">+</span>
                </button>
              </div>
              <span id={`${fieldId}-hint`} className="field-hint">
                {t('convert.blocksHint', { max: formatNumber(max, lang) })}
              </span>
              <FieldError
                id={`${fieldId}-error`}
                message={blocks === null ? t('convert.blocksInvalid', { max: formatNumber(max, lang) }) : null}
              />
            </div>
            <div aria-live="polite">
              {blocks !== null && (
                <dl className="dl qff-sums" aria-label={t('convert.preview')}>
                  <dt>{t('convert.youConvert')}</dt>
                  <dd>{points(blocks * blockSize)}</dd>
                  <dt>{t('convert.youGet')}</dt>
                  <dd>
                    <strong>{airline(blocks * perBlock)}</strong>
                  </dd>
                  <dt>{t('convert.stay')}</dt>
                  <dd>{points(balance - blocks * blockSize)}</dd>
                </dl>
              )}
            </div>
            <div className="qff-actions">
              <button
                type="button"
                className={`btn${blocks === null ? ' btn-off' : ''}`}
                aria-disabled={blocks === null ? true : undefined}
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
