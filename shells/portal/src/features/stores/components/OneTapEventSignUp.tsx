import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { activityStore, http, isHttpError, type SignInActivity } from '@portal/runtime';
import type { ActivityFields } from './ActivitySignIn';

/**
 * A signed-in member signs up to an event as themselves with one tap (POST /api/activity/event):
 * the event's questions, then one button; no email to confirm. The answer is shown in place by
 * the page, as a confirmed link's would be. The server checks the answers again: its field
 * problems go back to the page's fields (`customFields.<name>`).
 */
export function OneTapEventSignUp({
  fields,
  onFieldErrors,
  children,
}: {
  /** The event's part of the request; `null` while the page's own fields are not valid. */
  fields: () => ActivityFields | null;
  onFieldErrors: (errors: Record<string, string>) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('stores');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    onFieldErrors({});
    const extra = fields();
    if (!extra) return;
    setBusy(true);
    try {
      const body = { eventData: extra.eventData, customFields: extra.customFields };
      const activity = await http<SignInActivity>('/api/activity/event', { method: 'POST', body });
      activityStore.set({ activity });
    } catch (err) {
      if (isHttpError(err)) {
        const { 'eventData.m': event, ...rest } = err.errors ?? {};
        onFieldErrors(rest);
        setError(event ?? (Object.keys(rest).length ? t('signIn.fixFields') : err.message));
      } else setError(t('error.unknown', { ns: 'runtime' }));
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="event-one-tap-title">
      <h2 id="event-one-tap-title">{t('event.signUpTitle')}</h2>
      <p>{t('event.oneTapIntro')}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        {children}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
          {t('event.oneTapSubmit')}
        </button>
      </form>
    </section>
  );
}
