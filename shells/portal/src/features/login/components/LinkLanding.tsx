import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { screenView, useStore } from '@portal/runtime';
import { continueSignIn, continueSignedIn, linkStore } from '../../../auth-link';

/**
 * Landing from an emailed sign-in link: nothing is used up until the member taps Continue. A link
 * that can't be used (already used, expired) while this browser is signed in says so, and the
 * member goes on signed in as they were.
 */
export function LinkLanding() {
  const { t } = useTranslation('shell');
  const { phase } = useStore(linkStore);
  const busy = phase === 'exchanging';
  const kept = phase === 'kept';
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => screenView('Login page'), []);
  // Continue was pressed and is gone with the answer: the focus goes to what the screen says now.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (kept && wasBusy.current) title.current?.focus();
    wasBusy.current = busy;
  }, [kept, busy]);
  if (kept) {
    return (
      <section className="status-screen" aria-labelledby="link-title">
        <div className="card">
          <h1 id="link-title" ref={title} tabIndex={-1}>
            {t('link.keptTitle')}
          </h1>
          <p className="lead">{t('link.keptText')}</p>
          <button type="button" className="btn" onClick={() => continueSignedIn()}>
            {t('link.continue')}
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="status-screen" aria-labelledby="link-title">
      <div className="card">
        <h1 id="link-title">{t('link.title')}</h1>
        <p className="lead">{t('link.text')}</p>
        <button
          type="button"
          className="btn"
          onClick={() => void continueSignIn()}
          disabled={busy}
          aria-describedby={busy ? 'link-busy' : undefined}
        >
          {t('link.continue')}
        </button>
        <p id="link-busy" role="status" className="muted">
          {busy ? t('login.signingIn') : ''}
        </p>
      </div>
    </section>
  );
}
