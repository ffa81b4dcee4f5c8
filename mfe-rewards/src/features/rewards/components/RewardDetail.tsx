import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Bdi, Link, addToast, isHttpError, matchPath, usePathname, type Reward, nativeActionAvailable, useAuth } from '@portal/runtime';
import { NoData, OfflineNote } from '@portal/kit/offline-data';
import { NativeActionButton } from '@portal/kit/native-button';
import { Icon } from '../../../components/Icon';
import { formatDate, useTimeZone } from '../../../lib/format';
import { rewardIdOf } from '../api/rewards';
import { useReward } from '../hooks/use-rewards';
import { RewardStatus } from './RewardStatus';
import { asOfNow } from '../../../lib/vouchers';
import { VoucherQr } from './VoucherQr';
import { useContentText } from '@portal/kit/content';

function BackLink() {
  const { t } = useTranslation();
  return (
    <p className="back-link">
      <Link href="/rewards">{t('rewards.back')}</Link>
    </p>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="page" aria-labelledby="reward-title">
      <h1 id="reward-title" className="page-title">
        {t('detail.notFound')}
      </h1>
      <div className="card">
        <p>{t('detail.notFoundText')}</p>
        <p>
          <Link href="/rewards">{t('rewards.back')}</Link>
        </p>
      </div>
    </section>
  );
}

function CopyCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const copy = () => {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clipboard?.writeText) {
      // No clipboard access (an insecure page, an old browser): select it for the member to copy.
      const el = document.getElementById('voucher-code');
      const selection = window.getSelection?.();
      if (el && selection) {
        const range = document.createRange();
        range.selectNodeContents(el);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      addToast({ type: 'info', text: t('detail.copyFailed'), timeout: 5000 });
      return;
    }
    clipboard.writeText(code).then(
      () => addToast({ type: 'success', text: t('detail.copied') }),
      () => addToast({ type: 'error', text: t('detail.copyFailed'), timeout: 5000 }),
    );
  };
  return (
    <button type="button" className="btn btn-secondary btn-small" onClick={copy}>
      <Icon name="copy" />
      {t('detail.copy')}
    </button>
  );
}

/** "Add to Apple Wallet" / "Add to Google Pay": only those the native wrapper offers. */
function WalletButtons({ reward }: { reward: Reward }) {
  const { t } = useTranslation();
  const wallets = [
    { action: 'addAppleWallet' as const, label: t('detail.appleWallet') },
    { action: 'addGooglePay' as const, label: t('detail.googlePay') },
  ].filter((w) => nativeActionAvailable(w.action));
  if (wallets.length === 0) return null;
  return (
    <div className="voucher__wallets">
      {wallets.map((w) => (
        <NativeActionButton
          key={w.action}
          action={w.action}
          event="rewards_wallet_add"
          eventParams={{ wallet: w.action === 'addAppleWallet' ? 'apple' : 'google' }}
          params={{ id: reward.id, code: reward.code }}
        >
          {w.label}
        </NativeActionButton>
      ))}
    </div>
  );
}

function Voucher({ reward }: { reward: Reward }) {
  const { t } = useTranslation();
  const usable = reward.status !== 'used' && reward.status !== 'expired';
  return (
    <section
      className={`card voucher voucher--${usable ? 'available' : 'past'}`}
      aria-labelledby={reward.code ? 'voucher-code-label' : undefined}
    >
      <RewardStatus status={reward.status} />
      {/* A used or expired code must not be scanned at the till: no QR code for those. */}
      {usable ? reward.code && <VoucherQr code={reward.code} /> : <p className="voucher__note">{t(`detail.${reward.status}Note`)}</p>}
      {reward.code && (
        <>
          <h2 id="voucher-code-label" className="voucher__label">
            {usable ? t('detail.code') : t('detail.codePast')}
          </h2>
          <p id="voucher-code" className="voucher__code" dir="ltr" translate="no">
            {reward.code}
          </p>
          {/* Nothing to copy, show or add to a wallet once the code can't be redeemed. */}
          {usable && (
            <>
              <div className="voucher__actions">
                <CopyCode code={reward.code} />
              </div>
              <p className="muted voucher__hint">{t('detail.codeHint')}</p>
              <WalletButtons reward={reward} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/**
 * /rewards/item/{numeric id}: one reward, its voucher code as a QR code and as text, its terms.
 * Offline, from what this device last read (its own page, else the rewards list), with when that
 * was; a voucher whose expiry has passed meanwhile shows as expired, without its QR code.
 */
export function RewardDetail() {
  const { t, i18n } = useTranslation();
  const text = useContentText();
  const zone = useTimeZone();
  const client = useQueryClient();
  const { profile_id } = useAuth();
  const id = rewardIdOf(matchPath('/rewards/item/:id', usePathname())?.id);
  const query = useReward(id);
  if (id === null) return <NotFound />;
  if (query.isError && isHttpError(query.error) && query.error.status === 404) return <NotFound />;
  if (!query.data)
    return (
      <section className="page">
        <BackLink />
        <OfflineNote updatedAt={undefined} />
        <NoData query={query} />
      </section>
    );
  const reward = asOfNow(query.data.data);
  // Drawn from the list (its own answer not there yet, or not kept): the list's time.
  const updatedAt = query.isPlaceholderData ? client.getQueryState(['rewards', profile_id])?.dataUpdatedAt : query.dataUpdatedAt;
  const lang = i18n.language;
  const issued = formatDate(reward.issued_at, lang, zone);
  const expires = formatDate(reward.expires_at, lang, zone);
  const used = formatDate(reward.used_at, lang, zone);
  return (
    <section className="page reward-detail" aria-labelledby="reward-title">
      <BackLink />
      <OfflineNote updatedAt={updatedAt} />
      <h1 id="reward-title" className="page-title">
        <Bdi>{text(reward, 'name')}</Bdi>
      </h1>
      <div className="reward-detail__grid">
        <Voucher reward={reward} />
        <div className="card reward-detail__about">
          {reward.description && (
            <p className="reward-detail__description">
              <Bdi>{text(reward, 'description')}</Bdi>
            </p>
          )}
          <dl className="dl">
            {issued && (
              <>
                <dt>{t('detail.issued')}</dt>
                <dd>{issued}</dd>
              </>
            )}
            <dt>{t('detail.expires')}</dt>
            <dd>{expires ?? t('detail.noExpiry')}</dd>
            {used && (
              <>
                <dt>{t('detail.used')}</dt>
                <dd>{used}</dd>
              </>
            )}
          </dl>
          {reward.terms && (
            <>
              <h2 className="reward-detail__terms-title">{t('detail.terms')}</h2>
              <p className="reward-detail__terms">
                <Bdi>{text(reward, 'terms')}</Bdi>
              </p>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
