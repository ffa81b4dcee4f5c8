import { useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, useAuth } from '@portal/runtime';
import { formatNumber } from '@portal/kit/format';
import { formatDate, useTimeZone } from '@portal/kit/dates';
import type { QffLinked } from '../../shared/api/types';
import { UnlinkDialog } from './UnlinkDialog';

/**
 * The linked account: its number, the airline balance (or why it can't be read just now), since
 * when it is linked, and "Unlink" (not while staff are viewing the account).
 */
export function LinkedAccount({ status, compact = false }: { status: QffLinked; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const zone = useTimeZone();
  const { impersonating } = useAuth();
  const [unlinking, setUnlinking] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const since = formatDate(status.linked_at, lang, zone);

  const open = (e: MouseEvent<HTMLButtonElement>) => {
    opener.current = e.currentTarget;
    setUnlinking(true);
  };

  return (
    <div className="qff-account">
      <dl className="dl">
        <dt>{t('account.number')}</dt>
        <dd>
          <span className="qff-number" dir="ltr" translate="no">
            {status.qff_number}
          </span>
        </dd>
        <dt>{t('account.balance')}</dt>
        <dd>
          {status.points === null ? (
            <span className="qff-partner-error">
              <Bdi>{status.partner_error ?? t('account.balanceUnknown')}</Bdi>
            </span>
          ) : (
            <strong className="amount">{t('airline.amount', { count: status.points, points: formatNumber(status.points, lang) })}</strong>
          )}
        </dd>
        {!compact && since && (
          <>
            <dt>{t('account.since')}</dt>
            <dd>{since}</dd>
          </>
        )}
      </dl>
      {!impersonating && (
        <div className="qff-actions">
          <button type="button" className="btn btn-secondary" onClick={open}>
            {t('account.unlink')}
          </button>
        </div>
      )}
      {unlinking && <UnlinkDialog number={status.qff_number} opener={opener.current} onClose={() => setUnlinking(false)} />}
    </div>
  );
}
