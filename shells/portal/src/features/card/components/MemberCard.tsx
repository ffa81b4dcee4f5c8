// The member's card on Home: the brand-issued member number (`memberNumber`, never the internal
// profile id) as a barcode and as text in groups of four, and the points balance, both readable
// offline. Its own chunk (with the barcode library and its strings),
// fetched only once the member shows the card (the spec's card display flag). Online it reads the
// balance afresh and keeps number and balance in the member's record (localStorage, see
// @portal/build/member-record); offline it shows that record: the last known balance and when
// it was read. The service worker precaches the chunk, so it opens offline too.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import JsBarcode from 'jsbarcode';
import { http, timeZone, useAuth, useConfig, useOnline, type Balances, type PortalConfig, type Profile } from '@portal/runtime';
import { createMfeStrings } from '@portal/kit/mfe-strings';
import { membershipNumber, readMemberRecord, rememberBalance, rememberMember } from '@portal/kit/member-record';
import { formatNumber } from '@portal/kit/format';
import { formatDate } from '@portal/kit/dates';
import { CARD_NS, cardCatalogs } from '../i18n/catalogs';
import { barcodeFormat, cardNumber, groupDigits, isInternalId } from '../lib/number';

const Strings = createMfeStrings(CARD_NS, cardCatalogs);

/** The airline's number is the member's frequent-flyer number, never their card here. */
const AIRLINE_HANDLE = 'qff_number';

/** The tenant's own identity handles (config components.profile.identities; a cached config may hold anything). */
function cardHandles(config: PortalConfig | null): string[] {
  const list: unknown = config?.components?.profile?.identities;
  return Array.isArray(list) ? list.filter((h): h is string => typeof h === 'string' && h !== AIRLINE_HANDLE) : [];
}

/** CODE128 drawn into an <svg>, which scales with the card; the number itself is given as its name. */
function Barcode({ value, label }: { value: string; label: string }) {
  const ref = useRef<SVGSVGElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!ref.current) return;
    try {
      JsBarcode(ref.current, value, {
        format: barcodeFormat(value),
        displayValue: false,
        margin: 12,
        height: 72,
        width: 2,
        background: '#ffffff',
        lineColor: '#000000',
      });
      setFailed(false);
    } catch {
      setFailed(true); // a number CODE128 cannot carry: the text below still shows it
    }
  }, [value]);
  return (
    <svg
      ref={ref}
      className="member-card__barcode"
      role="img"
      aria-label={label}
      data-value={value}
      style={failed ? { display: 'none' } : undefined}
    />
  );
}

function Card({ profile }: { profile: Profile | null }) {
  const { t, i18n } = useTranslation(CARD_NS);
  const { profile_id: profileId } = useAuth();
  const { config } = useConfig();
  const online = useOnline();
  const [record, setRecord] = useState(() => readMemberRecord(profileId));
  const handles = cardHandles(config).join(' ');

  // The number follows the profile Home has read.
  const shown =
    profile && profile.id === profileId ? cardNumber(profile, membershipNumber(profile, handles ? handles.split(' ') : [])) : '';
  useEffect(() => {
    if (!shown) return;
    rememberMember(profileId, { number: shown });
    setRecord(readMemberRecord(profileId));
  }, [shown, profileId]);

  // The balance afresh whenever the card is shown online (and when the connection comes back).
  useEffect(() => {
    if (!online || !profileId) return undefined;
    const ctrl = new AbortController();
    http<Balances>('/api/profile/balances', { signal: ctrl.signal, quiet: true })
      .then((b) => {
        rememberBalance(profileId, b.data.points);
        setRecord(readMemberRecord(profileId));
      })
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [online, profileId]);

  const lang = i18n.language;
  const kept = record?.number;
  const number = kept && !isInternalId(kept) ? kept : undefined;
  const points = record?.points;
  return (
    <section className="card member-card" aria-labelledby="member-card-title">
      <h2 id="member-card-title">{t('title')}</h2>
      {number ? (
        <>
          <Barcode value={number} label={t('barcode', { number: groupDigits(number) })} />
          <p className="member-card__number">
            <span className="muted">{t('number')}</span>{' '}
            <strong dir="ltr" translate="no">
              {groupDigits(number)}
            </strong>
          </p>
        </>
      ) : (
        !online && <p className="muted">{t('unavailable')}</p>
      )}
      {points !== undefined && (
        <p className="member-card__points">
          <span className="muted">{t(online ? 'balance' : 'lastBalance')}</span>{' '}
          <strong>{t('points', { count: points, points: formatNumber(points, lang) })}</strong>
          {!online && record?.points_at && (
            <span className="muted">
              {' '}
              {t('asOf', {
                date: formatDate(record.points_at, lang, timeZone(config), 'dateTime'),
              })}
            </span>
          )}
        </p>
      )}
    </section>
  );
}

export default function MemberCard({ profile }: { profile: Profile | null }) {
  return (
    <Strings>
      <Card profile={profile} />
    </Strings>
  );
}
