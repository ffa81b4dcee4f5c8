import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, useAuth, useSearch, type Benefit, nativeActionAvailable, postNativeAction } from '@portal/runtime';
import { NoData, OfflineNote } from '@portal/kit/offline-data';
import { NativeActionButton } from '@portal/kit/native-button';
import { Icon } from '../../../components/Icon';
import { formatDate, refusalMessage, useTimeZone } from '../../../lib/format';
import { isImageAddress } from '../api/benefits';
import { useActivateBenefit, useBenefits } from '../hooks/use-benefits';
import { WriteButton } from '@portal/kit/offline';
import { useContentText } from '@portal/kit/content';

/** The offer named by `?b=` (spec: benefit id), if any. */
function wantedOffer(search: string): number | null {
  const b = new URLSearchParams(search).get('b');
  return b && /^\d{1,16}$/.test(b) ? Number(b) : null;
}

function BannerPart({ value, which }: { value: string; which: 'desktop' | 'mobile' | 'only' }) {
  const className = `offer__banner offer__banner--${which}`;
  // Decorative: the offer's name is its heading.
  if (isImageAddress(value)) return <img className={className} src={value.trim()} alt="" loading="lazy" decoding="async" />;
  return (
    <p className={className}>
      <Bdi>{value}</Bdi>
    </p>
  );
}

/** banner_desktop on wide screens, banner_mobile on narrow ones (CSS); one alone shows on both. */
function Banner({ offer }: { offer: Benefit }) {
  const text = useContentText();
  const desktop = text(offer, 'banner_desktop') || null;
  const mobile = text(offer, 'banner_mobile') || null;
  return (
    <>
      {desktop && <BannerPart value={desktop} which={mobile ? 'desktop' : 'only'} />}
      {mobile && <BannerPart value={mobile} which={desktop ? 'mobile' : 'only'} />}
    </>
  );
}

function Activation({ offer, readOnly }: { offer: Benefit; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const text = useContentText();
  const activate = useActivateBenefit();
  // Set synchronously: a second click before the next render sends nothing.
  const inFlight = useRef(false);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [justActivated, setJustActivated] = useState(false);
  const state = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // The button just pressed is gone: the focus goes to what replaced it.
    if (justActivated && offer.activated) state.current?.focus();
  }, [justActivated, offer.activated]);

  const onActivate = () => {
    if (inFlight.current || offer.activated) return;
    inFlight.current = true;
    setSending(true);
    setRefusal(null);
    activate.mutate(offer.id, {
      onSuccess: () => setJustActivated(true),
      onError: (err) =>
        setRefusal(
          refusalMessage(
            err,
            i18n.language,
            { 'This offer has ended': t('offers.ended'), "This offer doesn't need activating": t('offers.notNeeded') },
            t('offers.failed'),
          ),
        ),
      onSettled: () => {
        inFlight.current = false;
        setSending(false);
      },
    });
  };

  return (
    <div className="offer__action">
      {!offer.activated && !readOnly && (
        <WriteButton className="btn" onClick={onActivate} disabled={sending} aria-busy={sending || undefined} reasonShown={false}>
          {sending ? t('offers.activating') : t('offers.activate')}
          <span className="visually-hidden">
            {' '}
            <bdi>{text(offer, 'name')}</bdi>
          </span>
        </WriteButton>
      )}
      {/* Always present, so the change to "Activated" is announced. */}
      <p ref={state} className="offer__state" role="status" tabIndex={-1}>
        {offer.activated && (
          <>
            <Icon name="check" />
            {t('offers.activated')}
          </>
        )}
      </p>
      {refusal && (
        <p className="field-error" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}

function Offer({ offer, highlighted, readOnly, zone }: { offer: Benefit; highlighted: boolean; readOnly: boolean; zone: string }) {
  const { t, i18n } = useTranslation();
  const text = useContentText();
  const ends = formatDate(offer.ends_at, i18n.language, zone);
  const titleId = `offer-${offer.id}-title`;
  return (
    <li>
      <article
        id={`offer-${offer.id}`}
        className={`card offer${highlighted ? ' offer--highlight' : ''}`}
        tabIndex={highlighted ? -1 : undefined}
        aria-labelledby={titleId}
      >
        <Banner offer={offer} />
        <div className="offer__body">
          <h2 id={titleId} className="offer__name">
            <Bdi>{text(offer, 'name')}</Bdi>
          </h2>
          {offer.description && (
            <p className="offer__description">
              <Bdi>{text(offer, 'description')}</Bdi>
            </p>
          )}
          {ends && (
            <p className="muted offer__ends">
              <Icon name="clock" />
              {t('offers.ends', { date: ends })}
            </p>
          )}
          {offer.is_claimable ? (
            <Activation offer={offer} readOnly={readOnly} />
          ) : (
            <p className="muted offer__automatic">{t('offers.automatic')}</p>
          )}
        </div>
      </article>
    </li>
  );
}

/** Inside a native app that offers gotoShop: "Shop now" opens its shop. */
function ShopNow() {
  const { t } = useTranslation();
  if (!nativeActionAvailable('gotoShop')) return null;
  return (
    <p>
      <NativeActionButton action="gotoShop" event="offers_goto_shop">
        {t('offers.shopNow')}
      </NativeActionButton>
    </p>
  );
}

/** /offers: the member's current offers; claimable ones are activated here. */
export function Offers() {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  const zone = useTimeZone();
  const query = useBenefits();
  const wanted = wantedOffer(useSearch());
  const offers = query.data?.data;

  // Inside the native wrapper: the offers on screen, once per distinct list.
  const posted = useRef<string | null>(null);
  useEffect(() => {
    if (!offers) return;
    const ids = offers.map((o) => o.id);
    if (posted.current === ids.join(',')) return;
    posted.current = ids.join(',');
    postNativeAction('loadOfferList', { ids });
  }, [offers]);

  // ?b={id}: that offer is scrolled to, highlighted and focused, once.
  const shown = useRef<number | null>(null);
  useEffect(() => {
    if (wanted === null || !offers || shown.current === wanted) return;
    const el = document.getElementById(`offer-${wanted}`);
    if (!el) return;
    shown.current = wanted;
    const still = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView?.({ block: 'center', behavior: still ? 'auto' : 'smooth' });
    el.focus({ preventScroll: true });
  }, [wanted, offers]);

  let body;
  if (!query.data) body = <NoData query={query} />;
  else if (query.data.data.length === 0) body = <p className="card">{t('offers.empty')}</p>;
  else
    body = (
      <ul className="offers">
        {query.data.data.map((offer) => (
          <Offer key={offer.id} offer={offer} highlighted={offer.id === wanted} readOnly={impersonating} zone={zone} />
        ))}
      </ul>
    );
  const missing = wanted !== null && offers !== undefined && !offers.some((o) => o.id === wanted);

  return (
    <section className="page" aria-labelledby="offers-title">
      <h1 id="offers-title" className="page-title">
        {t('offers.title')}
      </h1>
      <OfflineNote updatedAt={query.dataUpdatedAt} />
      {missing && <p className="card notice">{t('offers.missing')}</p>}
      {impersonating && offers?.some((o) => o.is_claimable && !o.activated) && <p className="card notice">{t('offers.readOnly')}</p>}
      {body}
      <ShopNow />
    </section>
  );
}
