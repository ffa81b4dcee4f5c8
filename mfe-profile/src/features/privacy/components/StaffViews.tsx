import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, addToast, isHttpError, track } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { WriteButton } from '@portal/kit/offline';
import { formatDateTime } from '../../../lib/format';
import type { StaffView } from '../api/privacy';
import { useRevokeSession } from '../hooks/use-sessions';

function View({
  view,
  zone,
  busy,
  onEnd,
}: {
  view: StaffView;
  zone: string;
  busy: boolean;
  onEnd: (view: StaffView, button: HTMLButtonElement) => void;
}) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, i18n.language, zone)}</time>;
  return (
    <li className="staff-view">
      <div className="staff-view__body">
        <p className="staff-view__name">
          <strong>
            <Bdi>{view.staff_name}</Bdi>
          </strong>
        </p>
        <dl className="dl staff-view__facts">
          <dt>{t('privacy.staffViews.since')}</dt>
          <dd>{when(view.started_at)}</dd>
          {view.last_seen_at && (
            <>
              <dt>{t('privacy.staffViews.lastSeen')}</dt>
              <dd>{when(view.last_seen_at)}</dd>
            </>
          )}
          <dt>{t('privacy.staffViews.until')}</dt>
          <dd>{when(view.expires_at)}</dd>
        </dl>
      </div>
      <div className="staff-view__action">
        <WriteButton
          type="button"
          className="btn btn-secondary btn-small"
          aria-busy={busy || undefined}
          reasonShown={false}
          onClick={(e) => onEnd(view, e.currentTarget)}
        >
          {busy ? t('privacy.staffViews.ending') : t('privacy.staffViews.end')}
          <span className="visually-hidden"> ({view.staff_name})</span>
        </WriteButton>
      </div>
    </li>
  );
}

/**
 * Staff viewing the account now (read-only), each with "End this view" (after a confirmation):
 * DELETE /api/privacy/sessions/{id} ends it at once, and the list is read again. Nothing is shown
 * while nobody is viewing: the visits themselves stay listed under Staff access on My Details.
 * After an end the focus goes to `fallback` (this section may be gone with its last view).
 */
export function StaffViews({ views, zone, fallback }: { views: StaffView[]; zone: string; fallback: () => HTMLElement | null }) {
  const { t } = useTranslation();
  const id = useId();
  const revoke = useRevokeSession();
  const [asking, setAsking] = useState<StaffView | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // The list has been read again by then (useRevokeSession): this heading while views remain.
  const settle = (stillThere: boolean) => (stillThere ? heading.current : fallback())?.focus();

  const end = (view: StaffView) => {
    setAsking(null);
    if (revoke.isPending) return;
    revoke.mutate(view.id, {
      onSuccess: () => {
        track('my_details_end_staff_view');
        addToast({ type: 'success', text: t('privacy.staffViews.ended', { name: view.staff_name }) });
      },
      onError: (err) => {
        if (isHttpError(err) && err.status === 404) addToast({ type: 'info', text: t('privacy.staffViews.alreadyEnded') });
        // A 403 is told by the runtime; a 401 ends the session.
        else if (!(isHttpError(err) && (err.status === 403 || err.status === 401))) {
          addToast({ type: 'error', text: t('privacy.staffViews.failed'), timeout: 5000 });
        }
      },
      onSettled: (_data, err) => settle(views.length > 1 || (!!err && !(isHttpError(err) && err.status === 404))),
    });
  };

  if (views.length === 0 && !asking) return null;
  return (
    <section className="card privacy-section staff-views" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('privacy.staffViews.title')}
      </h2>
      <p className="muted">{t('privacy.staffViews.intro')}</p>
      <ul className="list staff-views__list">
        {views.map((v) => (
          <View
            key={v.id}
            view={v}
            zone={zone}
            busy={revoke.isPending && revoke.variables === v.id}
            onEnd={(view, button) => {
              opener.current = button;
              setAsking(view);
            }}
          />
        ))}
      </ul>
      {asking && (
        <Dialog labelledBy={`${id}-ask`} describedBy={`${id}-ask-text`} onClose={() => setAsking(null)} returnFocus={opener.current}>
          <h2 id={`${id}-ask`}>{t('privacy.staffViews.confirmTitle')}</h2>
          <p id={`${id}-ask-text`}>
            <BdiTrans k="privacy.staffViews.confirmText" values={{ name: asking.staff_name }} />
          </p>
          <div className="dialog__actions">
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)} data-autofocus>
              {t('privacy.cancel')}
            </button>
            <WriteButton type="button" className="btn" onClick={() => end(asking)}>
              {t('privacy.staffViews.confirm')}
            </WriteButton>
          </div>
        </Dialog>
      )}
    </section>
  );
}
