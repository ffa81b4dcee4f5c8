import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BdiTrans, Link, Loading, RemoteParcel, http, screenView, track, useAuth, TAB_CLICK_EVENTS, type Profile, nativeActionAvailable } from '@portal/runtime';
import { NativeActionButton } from '@portal/build/src/native-button';
import { HOME_PARCEL_REMOTE } from '../mfe/routes';

const CARDS = [
  { key: 'profile', href: '/profile' },
  { key: 'transactions', href: '/transactions' },
  { key: 'rewards', href: '/rewards' },
  { key: 'offers', href: '/offers' },
] as const;

// Only staff users see the staff search: its code is fetched when one opens /home.
const StaffPanel = lazy(() => import(/* webpackChunkName: "staff" */ './staff/StaffPanel').then((m) => ({ default: m.StaffPanel })));

const QFF_SUMMARY = { view: 'summary' };

/** /home: the member's cards, or the staff search for a staff user who is not viewing a member. */
export function Home() {
  const auth = useAuth();
  if (auth.staff && !auth.impersonating) {
    return (
      <Suspense fallback={<Loading />}>
        <StaffPanel />
      </Suspense>
    );
  }
  return <MemberHome />;
}

/** Inside a native app that offers gotoShop: "Shop now" opens its shop. */
function ShopNow() {
  const { t } = useTranslation('shell');
  if (!nativeActionAvailable('gotoShop')) return null;
  return (
    <p>
      <NativeActionButton action="gotoShop" event="home_goto_shop">
        {t('native.shopNow')}
      </NativeActionButton>
    </p>
  );
}

function MemberHome() {
  const { t } = useTranslation('shell');
  const [firstName, setFirstName] = useState<string | null>(null);

  useEffect(() => {
    screenView('Home');
    const ctrl = new AbortController();
    http<Profile>('/api/profile', { signal: ctrl.signal })
      .then((p) => setFirstName(p?.first_name || null))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, []);

  return (
    <section className="page" aria-labelledby="home-title">
      <h1 id="home-title">{firstName ? <BdiTrans ns="shell" k="home.greeting" values={{ name: firstName }} /> : t('home.greetingAnon')}</h1>
      <p className="lead">{t('home.intro')}</p>
      <ShopNow />
      <div className="card-grid">
        {CARDS.map(({ key, href }) => (
          <Link key={key} className="card" href={href} onClick={() => track(TAB_CLICK_EVENTS[href])}>
            <h2>{t(`home.cards.${key}.title`)}</h2>
            <p>{t(`home.cards.${key}.text`)}</p>
          </Link>
        ))}
      </div>
      <RemoteParcel remote={HOME_PARCEL_REMOTE} props={QFF_SUMMARY} className="home-qff" />
    </section>
  );
}
