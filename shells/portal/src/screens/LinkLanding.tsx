import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { screenView, useStore } from '@portal/runtime';
import { continueSignIn, linkStore } from '../auth-link';

/** Landing from an emailed sign-in link: nothing is used up until the member taps Continue. */
export function LinkLanding() {
  const { t } = useTranslation('shell');
  const { phase } = useStore(linkStore);
  const busy = phase === 'exchanging';
  useEffect(() => screenView('Login page'), []);
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
