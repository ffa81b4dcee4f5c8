import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BdiTrans,
  CARD_DISPLAY_KEY,
  Link,
  Loading,
  RemoteParcel,
  screenView,
  track,
  useAuth,
  TAB_CLICK_EVENTS,
  type Profile,
  nativeActionAvailable,
  useBrowserValue,
  useDrawn,
} from '@portal/runtime';
import { NativeActionButton } from '@portal/kit/native-button';
import { HOME_PARCEL_REMOTE } from '../mfe/routes';
import { homeProfile } from '../features/home/api/home-data';
import { SummaryBoundary, SummarySkeleton } from '../features/home/components/Skeleton';

const CARDS = [
  { key: 'profile', href: '/profile' },
  { key: 'transactions', href: '/transactions' },
  { key: 'rewards', href: '/rewards' },
  { key: 'offers', href: '/offers' },
] as const;

// Only staff users see the staff search: its code is fetched when one opens /home.
const StaffPanel = lazy(() =>
  import(/* webpackChunkName: "staff" */ '../features/staff/components/StaffPanel').then((m) => ({ default: m.StaffPanel })),
);

const QFF_SUMMARY = { view: 'summary' };

// The three nearest stores: their chunk (with the stores strings) is fetched after the first paint.
const NearbyStores = lazy(() =>
  import(/* webpackChunkName: "stores-near" */ '../features/stores/components/NearbyStoresCard').then((m) => ({
    default: m.NearbyStoresCard,
  })),
);

// The member's card (barcode, number, last known balance): its chunk is fetched once it is shown.
const MemberCard = lazy(() => import(/* webpackChunkName: "member-card" */ '../features/card/components/MemberCard'));

// The points summary (balance, tier, expiring points, vouchers, offers): its chunk, with its
// strings, is fetched once the first screen is drawn; its skeleton keeps the room until then.
const HomeSummary = lazy(() => import(/* webpackChunkName: "home-summary" */ '../features/home/components/HomeSummary'));

function cardShown(): boolean {
  try {
    return localStorage.getItem(CARD_DISPLAY_KEY) === '1';
  } catch {
    return false;
  }
}

/** After the page has loaded and the browser is idle: the first screen is drawn by then. */
function afterFirstScreen(run: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  const w = window as Window & {
    requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number;
    cancelIdleCallback?: (id: number) => void;
  };
  const start = () => {
    if (cancelled) return;
    if (w.requestIdleCallback) idle = w.requestIdleCallback(run, { timeout: 2000 });
    else idle = window.setTimeout(run, 200);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', start);
    if (idle !== undefined) (w.cancelIdleCallback ?? window.clearTimeout)(idle);
  };
}

/**
 * Renders `children` once its spot is well in view (its first 120 px would show), and not before
 * the page's first screen is drawn: what sits below the fold on a phone (the nearest stores) is
 * fetched and drawn when the member scrolls to it, never competing with the first screen. At
 * once without IntersectionObserver.
 */
function WhenVisible({ children }: { children: ReactNode }) {
  const spot = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = spot.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setShown(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setShown(true);
          io.disconnect();
        }
      },
      { rootMargin: '0px 0px -120px 0px' },
    );
    const cancel = afterFirstScreen(() => io.observe(el));
    return () => {
      cancel();
      io.disconnect();
    };
  }, []);
  return (
    <div ref={spot} className="when-visible">
      {shown && children}
    </div>
  );
}

/** The points summary once the first screen is drawn (at build time and before: its skeleton). */
function SummarySlot() {
  const { t } = useTranslation('shell');
  const drawn = useDrawn();
  const [ready, setReady] = useState(false);
  useEffect(() => (drawn ? undefined : afterFirstScreen(() => setReady(true))), [drawn]);
  const skeleton = <SummarySkeleton title={t('home.summary')} />;
  if (!ready) return skeleton;
  return (
    <SummaryBoundary fallback={skeleton}>
      <Suspense fallback={skeleton}>
        <HomeSummary />
      </Suspense>
    </SummaryBoundary>
  );
}

/** "Show my membership card": the choice is kept (the spec's card display flag) until sign-out. */
function CardSlot({ profile }: { profile: Profile | null }) {
  const { t } = useTranslation('shell');
  // The kept choice once hydrated (the page the build drew shows the card hidden).
  const kept = useBrowserValue(cardShown, false);
  const [choice, setChoice] = useState<boolean | null>(null);
  const shown = choice ?? kept;
  // Drawn at build time, the button waits for the script.
  const drawn = useDrawn();
  const toggle = () => {
    setChoice(!shown);
    try {
      if (shown) localStorage.removeItem(CARD_DISPLAY_KEY);
      else localStorage.setItem(CARD_DISPLAY_KEY, '1');
    } catch {
      /* storage blocked: shown for this visit only */
    }
  };
  return (
    <div className="member-card-slot">
      <button
        type="button"
        className="btn btn-secondary"
        aria-expanded={shown}
        aria-controls="member-card"
        onClick={toggle}
        disabled={drawn}
      >
        {t(shown ? 'home.card.hide' : 'home.card.show')}
      </button>
      <div id="member-card">
        {shown && (
          <Suspense fallback={<div className="card member-card" />}>
            <MemberCard profile={profile} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

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
  // The wrapper's bridge is in the browser only (the page the build drew has no button).
  const available = useBrowserValue(() => nativeActionAvailable('gotoShop'), false);
  if (!available) return null;
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
  const [profile, setProfile] = useState<Profile | null>(null);
  const firstName = profile?.first_name || null;

  // Drawn ahead of time (app.html) this is every page's first screen: only once it is really
  // /home does it count as a view and ask for the greeting's profile.
  const drawn = useDrawn();
  useEffect(() => {
    if (drawn) return undefined;
    screenView('Home');
    const ctrl = new AbortController();
    homeProfile(ctrl.signal)
      .then((p) => setProfile(p ?? null))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [drawn]);

  return (
    <section className="page" aria-labelledby="home-title">
      <h1 id="home-title">{firstName ? <BdiTrans ns="shell" k="home.greeting" values={{ name: firstName }} /> : t('home.greetingAnon')}</h1>
      <p className="lead">{t('home.intro')}</p>
      <SummarySlot />
      <CardSlot profile={profile} />
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
      <WhenVisible>
        <Suspense fallback={null}>
          <NearbyStores />
        </Suspense>
      </WhenVisible>
    </section>
  );
}
