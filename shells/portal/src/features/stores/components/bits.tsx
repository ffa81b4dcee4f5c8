import { useTranslation } from 'react-i18next';
import { Link, useLanguage, type StoreLocation } from '@portal/runtime';
import { GeoCredit } from '@portal/kit/geo-credit';
import { WEEKDAYS, formatDistance, localTime, openingState, storePath, type Here, type Hours } from '@portal/runtime/geolocation';

export const hoursOf = (s: StoreLocation): Hours => (s.hours ?? {}) as Hours;

/** "Open now · closes 21:00" / "Closed · opens Thursday at 10:00", in the store's time zone. */
export function OpenNow({ store, now }: { store: StoreLocation; now?: Date }) {
  const { t } = useTranslation('stores');
  const state = openingState(hoursOf(store), store.time_zone, now);
  if (state.open) return <span className="store-open store-open--yes">{t('open.closesAt', { time: state.closesAt })}</span>;
  const next = state.opensAt;
  const text = !next
    ? t('open.closed')
    : next.today
      ? t('open.opensToday', { time: next.time })
      : t('open.opensOn', { day: t(`days.${next.day}`), time: next.time });
  return <span className="store-open store-open--no">{text}</span>;
}

/** "2.4 km away" in the page's language. */
export function Distance({ metres }: { metres: number | null | undefined }) {
  const { t } = useTranslation('stores');
  const { language } = useLanguage();
  if (metres == null) return null;
  return <span className="store-distance">{t('near.away', { distance: formatDistance(metres, language) })}</span>;
}

/** Where the distances are measured from, and the IP database's credit when it was used. */
export function PositionNote({ here }: { here: Here }) {
  const { t } = useTranslation('stores');
  const text = here.source === 'device' ? t('near.fromDevice') : here.source === 'ip' ? t('near.fromIp') : t('near.fromDefault');
  return (
    <p className="muted store-position">
      {text}
      <GeoCredit here={here} />
    </p>
  );
}

/** The week's opening hours, today marked, as local times of the store. */
export function HoursTable({ store, now }: { store: StoreLocation; now?: Date }) {
  const { t } = useTranslation('stores');
  const hours = hoursOf(store);
  const today = localTime(store.time_zone, now ?? new Date()).day;
  return (
    <table className="store-hours">
      <caption className="visually-hidden">{t('location.hours')}</caption>
      <tbody>
        {WEEKDAYS.map((d) => (
          <tr key={d} className={d === today ? 'store-hours__today' : undefined} aria-current={d === today ? 'date' : undefined}>
            <th scope="row">
              {t(`days.${d}`)}
              {d === today && <span className="visually-hidden"> ({t('location.today')})</span>}
            </th>
            <td>
              {(hours[d] ?? []).length ? (
                <span dir="ltr">{(hours[d] ?? []).map(([a, b]) => `${a}–${b}`).join(', ')}</span>
              ) : (
                t('location.closedAllDay')
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One store in a list: its name linking to its page, the distance and, if asked, open now. */
export function StoreItem({ store, open = false }: { store: StoreLocation; open?: boolean }) {
  return (
    <li className="store-list__item">
      <Link href={storePath(store.handle)} className="store-list__name">
        {store.name}
      </Link>
      <Distance metres={store.distance} />
      {open && <OpenNow store={store} />}
    </li>
  );
}
