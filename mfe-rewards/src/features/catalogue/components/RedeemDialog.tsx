import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, Link, isHttpError, type CatalogueItem, type Redemption } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { Icon } from '../../../components/Icon';
import { newIdempotencyKey } from '@portal/kit/idempotency';
import { formatNumber, refusalMessage } from '../../../lib/format';
import { useRedeem } from '../hooks/use-catalogue';
import { WriteButton } from '@portal/kit/offline';
import { useContentText } from '@portal/kit/content';

type Refusal = { message: string; final: boolean };

/**
 * Asks before spending points: what the item costs and the balance after. Confirm sends one
 * request (the button is off while it runs) with this confirmation's Idempotency-Key, the same
 * for a retry; then the voucher. A refusal is told here and the dialog stays.
 */
export function RedeemDialog({
  item,
  balance,
  opener,
  onClose,
}: {
  item: CatalogueItem;
  balance: number | undefined;
  /** The Redeem button: the focus goes back to it. */
  opener: HTMLElement | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const text = useContentText();
  const points = (n: number) => t('points.amount', { count: n, points: formatNumber(n, lang) });
  const [idempotencyKey] = useState(newIdempotencyKey);
  const redeem = useRedeem();
  // Set synchronously: a second click before the next render sends nothing.
  const inFlight = useRef(false);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState<Redemption | null>(null);
  const doneTitle = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (done) doneTitle.current?.focus();
  }, [done]);

  const confirm = () => {
    if (inFlight.current || done) return;
    inFlight.current = true;
    setSending(true);
    setRefusal(null);
    redeem.mutate(
      { catalogueId: item.id, idempotencyKey, name: text(item, 'name') },
      {
        onSuccess: ({ data }) => setDone(data),
        onError: (err) => {
          const notEnough = isHttpError(err) && err.status === 409;
          const fallback = notEnough ? t('redeem.notEnough') : t('redeem.failed');
          // After a 409 the same key gets the same answer: no Confirm to retry with.
          setRefusal({ message: refusalMessage(err, lang, {}, fallback), final: notEnough });
        },
        onSettled: () => {
          inFlight.current = false;
          setSending(false);
        },
      },
    );
  };

  if (done) {
    const reward = done.reward;
    return (
      <Dialog labelledBy="redeem-title" onClose={onClose} returnFocus={opener} className="redeem">
        <h2 id="redeem-title" ref={doneTitle} tabIndex={-1} className="redeem__done-title">
          <Icon name="check" />
          {t('redeem.doneTitle')}
        </h2>
        <p className="redeem__reward">
          <strong>
            <Bdi>{text(reward, 'name')}</Bdi>
          </strong>
        </p>
        {reward.code && (
          <>
            <p className="voucher__label">{t('redeem.code')}</p>
            <p className="voucher__code" dir="ltr" translate="no">
              {reward.code}
            </p>
          </>
        )}
        <p>{t('redeem.newBalance', { balance: points(done.balance) })}</p>
        <div className="dialog__actions">
          <Link className="btn btn-secondary" href={`/rewards/item/${reward.id}`}>
            {t('redeem.view')}
          </Link>
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            {t('redeem.done')}
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog labelledBy="redeem-title" describedBy="redeem-sums" onClose={onClose} returnFocus={opener} className="redeem">
      <h2 id="redeem-title">
        <BdiTrans k="redeem.title" values={{ name: text(item, 'name') }} />
      </h2>
      <dl className="dl redeem__sums" id="redeem-sums">
        <dt>{t('redeem.cost')}</dt>
        <dd>{points(item.points)}</dd>
        {balance !== undefined && (
          <>
            <dt>{t('redeem.balanceNow')}</dt>
            <dd>{points(balance)}</dd>
            <dt>{t('redeem.balanceAfter')}</dt>
            <dd>
              <strong>{points(balance - item.points)}</strong>
            </dd>
          </>
        )}
      </dl>
      {item.valid_days > 0 && <p className="muted">{t('catalogue.validFor', { count: item.valid_days })}</p>}
      {refusal && (
        <p className="field-error redeem__refusal" role="alert">
          {refusal.message}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="btn btn-secondary" onClick={onClose} data-autofocus>
          {refusal?.final ? t('redeem.close') : t('redeem.cancel')}
        </button>
        {!refusal?.final && (
          <WriteButton className="btn" onClick={confirm} disabled={sending} aria-busy={sending || undefined}>
            {sending ? t('redeem.confirming') : t('redeem.confirm')}
          </WriteButton>
        )}
      </div>
    </Dialog>
  );
}
