import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, Loading, activityStore, screenView, track, useAuth, useLanguage, useStore, type StoreLocation } from '@portal/runtime';
import { directionsUrl, findStore, storePath, storesAroundMe, zoneName, type Here } from '@portal/runtime/geolocation';
import { ActivitySignIn } from './ActivitySignIn';
import { Distance, HoursTable, OpenNow, PositionNote, StoreItem } from './bits';
import { OneTapCheckIn } from './OneTapCheckIn';

/** Which store a location page is for: `/loc/{handle}`, or `?location=`, `?handle=`, `?location_id=`. */
export function locationKey(path: string, search: string): { handle: string | null; id: string | null } {
  const q = new URLSearchParams(search);
  const m = /^\/loc\/([^/]+)$/.exec(path);
  let handle = m ? decodeURIComponent(m[1]) : q.get('handle') || q.get('location');
  let id = q.get('location_id');
  // `?location=12` names a store by its id.
  if (!m && !q.get('handle') && handle && /^\d+$/.test(handle)) {
    id = id ?? handle;
    handle = null;
  }
  return { handle: handle || null, id: id || null };
}

type State = { phase: 'loading' } | { phase: 'failed'; error: unknown } | { phase: 'ready'; here: Here | null; stores: StoreLocation[] };

/** The store's page: address, phone, hours with "open now", distance, directions and check-in. */
export function LocationPage({ path, search }: { path: string; search: string }) {
  const { t } = useTranslation('stores');
  const { language } = useLanguage();
  const [state, setState] = useState<State>({ phase: 'loading' });
  const { activity } = useStore(activityStore);
  const auth = useAuth();
  // A member signed in as themselves checks in with one tap; a staff view sees the email form.
  const oneTap = auth.authenticated && !auth.impersonating && !auth.staff;
  const key = locationKey(path, search);

  const load = useCallback(async (signal?: AbortSignal) => {
    setState({ phase: 'loading' });
    try {
      setState({ phase: 'ready', ...(await storesAroundMe(signal)) });
    } catch (error) {
      if (!signal?.aborted) setState({ phase: 'failed', error });
    }
  }, []);

  useEffect(() => {
    screenView('Location page');
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);
  // What a check-in brought is shown on this visit of the page only.
  useEffect(() => () => activityStore.set({ activity: null }), []);

  if (state.phase === 'loading') return <Loading label={t('location.loading')} />;
  if (state.phase === 'failed') return <ErrorState error={state.error} onRetry={() => void load()} />;
  const store = findStore(state.stores, key);
  if (!store) {
    return (
      <section className="page" aria-labelledby="loc-title">
        <h1 id="loc-title" className="page-title">
          {t('location.notFoundTitle')}
        </h1>
        <p className="lead">{t('location.notFoundText')}</p>
        <h2>{t('near.all')}</h2>
        <ul className="store-list">
          {state.stores.map((s) => (
            <StoreItem key={s.handle} store={s} />
          ))}
        </ul>
      </section>
    );
  }
  const checkedIn = activity?.kind === 'visit' && activity.key === store.handle ? activity : null;
  return (
    <section className="page store-page" aria-labelledby="loc-title">
      <h1 id="loc-title" className="page-title">
        {store.name}
      </h1>
      <p className="lead">
        <OpenNow store={store} />
      </p>
      {checkedIn && (
        <div className="card notice store-checked-in" role="status">
          <h2>
            {checkedIn.recorded ? t('location.checkedIn', { store: store.name }) : t('location.alreadyCheckedIn', { store: store.name })}
          </h2>
          <p>{checkedIn.recorded ? t('location.checkedInText') : t('location.alreadyCheckedInText')}</p>
        </div>
      )}
      <div className="card">
        <dl className="dl store-facts">
          <dt>{t('location.address')}</dt>
          <dd className="store-address">{store.address}</dd>
          {store.phone && (
            <>
              <dt>{t('location.phone')}</dt>
              <dd>
                <a href={`tel:${store.phone.replace(/\s+/g, '')}`} dir="ltr">
                  {store.phone}
                </a>
              </dd>
            </>
          )}
          {store.distance != null && (
            <>
              <dt>{t('location.distance')}</dt>
              <dd>
                <Distance metres={store.distance} />
              </dd>
            </>
          )}
        </dl>
        {state.here && store.distance != null && <PositionNote here={state.here} />}
        <a
          className="btn btn-secondary"
          href={directionsUrl(store)}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby="loc-directions-hint"
          onClick={() => track('location_directions', { store: store.handle })}
        >
          {t('location.directions')}
        </a>
        <span id="loc-directions-hint" className="visually-hidden">
          {t('location.directionsHint')}
        </span>
      </div>
      <section className="card" aria-labelledby="loc-hours-title">
        <h2 id="loc-hours-title">{t('location.hours')}</h2>
        <HoursTable store={store} />
        <p className="muted">{t('location.hoursNote', { zone: zoneName(store.time_zone, language) })}</p>
      </section>
      {!checkedIn && oneTap && <OneTapCheckIn handle={store.handle} />}
      {!checkedIn && !oneTap && (
        <ActivitySignIn
          id="loc-check-in"
          title={t('location.checkInTitle')}
          intro={t('location.checkInIntro')}
          submitLabel={t('location.checkInSubmit')}
          redirect={storePath(store.handle)}
          fields={() => ({ mode: 'visit', location: store.handle })}
        />
      )}
    </section>
  );
}
