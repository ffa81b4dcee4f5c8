import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activityStore, http, isHttpError, type SignInActivity } from '@portal/runtime';

/**
 * A signed-in member checks in as themselves with one tap (POST /api/activity/visit): no email
 * to confirm. The answer is shown in place by the page, as a confirmed link's would be.
 */
export function OneTapCheckIn({ handle }: { handle: string }) {
  const { t } = useTranslation('stores');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const checkIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const activity = await http<SignInActivity>('/api/activity/visit', { method: 'POST', body: { location: handle } });
      activityStore.set({ activity });
    } catch (err) {
      setError(isHttpError(err) ? (err.errors?.location ?? err.message) : t('error.unknown', { ns: 'runtime' }));
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="loc-check-in-title">
      <h2 id="loc-check-in-title">{t('location.checkInTitle')}</h2>
      <p>{t('location.oneTapIntro')}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void checkIn()}>
        {t('location.oneTapSubmit')}
      </button>
    </section>
  );
}
