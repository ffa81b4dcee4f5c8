import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, ErrorState, Loading, addToast, isHttpError, logout, timeZone, track, useConfig } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { WriteButton } from '@portal/kit/offline';
import { formatDateTime } from '../../../lib/format';
import type { PrivacySession } from '../api/privacy';
import { useRevokeOthers, useRevokeSession, useSessions } from '../hooks/use-sessions';
import { DEVICE_TYPES, deviceName, deviceTypeKey } from '../lib/device';
import { Icon, type IconName } from './Icon';
import { StaffViews } from './StaffViews';

type Asking = { kind: 'one'; session: PrivacySession } | { kind: 'others' } | null;

/** This device first, the others newest sign-in first (as the server lists them). */
const ordered = (list: PrivacySession[]) => [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];

function Session({
  session,
  zone,
  busy,
  onSignOut,
}: {
  session: PrivacySession;
  zone: string;
  busy: boolean;
  onSignOut: (session: PrivacySession, button: HTMLButtonElement) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = deviceName(session, t);
  const icon: IconName = session.device && (DEVICE_TYPES as readonly string[]).includes(session.device) ? session.device : 'unknown';
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, i18n.language, zone)}</time>;
  return (
    <li className={`session${session.current ? ' session--current' : ''}`}>
      <Icon name={icon} className="session__icon" />
      <div className="session__body">
        <p className="session__name">
          <strong>
            {session.browser && session.os ? (
              <BdiTrans k="privacy.sessions.browserOnOs" values={{ browser: session.browser, os: session.os }} />
            ) : (
              <Bdi>{name}</Bdi>
            )}
          </strong>
          {session.current && <span className="badge">{t('privacy.sessions.thisDevice')}</span>}
        </p>
        <dl className="dl session__facts">
          <dt>{t('privacy.sessions.deviceLabel')}</dt>
          <dd>{t(deviceTypeKey(session))}</dd>
          <dt>{t('privacy.sessions.place')}</dt>
          <dd>{session.place ? <Bdi>{session.place}</Bdi> : <span className="muted">{t('privacy.sessions.unknownPlace')}</span>}</dd>
          <dt>{t('privacy.sessions.signedIn')}</dt>
          <dd>{when(session.signed_in_at)}</dd>
          {session.last_seen_at && (
            <>
              <dt>{t('privacy.sessions.lastSeen')}</dt>
              <dd>{when(session.last_seen_at)}</dd>
            </>
          )}
          {session.ip && (
            <>
              <dt>{t('privacy.sessions.ip')}</dt>
              <dd>
                <bdi dir="ltr">{session.ip}</bdi>
              </dd>
            </>
          )}
        </dl>
      </div>
      <div className="session__action">
        {session.current ? (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void logout()}>
            {t('privacy.sessions.signOutHere')}
          </button>
        ) : (
          <WriteButton
            type="button"
            className="btn btn-secondary btn-small"
            aria-busy={busy || undefined}
            reasonShown={false}
            onClick={(e) => onSignOut(session, e.currentTarget)}
          >
            {busy ? t('privacy.sessions.signingOut') : t('privacy.sessions.signOut')}
            <span className="visually-hidden">
              {' '}
              ({name}, {formatDateTime(session.signed_in_at, i18n.language, zone)})
            </span>
          </WriteButton>
        )}
      </div>
    </li>
  );
}

/**
 * My sessions: every device signed in to the account, this one marked. Another device is signed
 * out with DELETE /api/privacy/sessions/{id}, all of them but this one with revoke-others (each
 * after a confirmation); this one by logging out. The list is read again after each, and the
 * focus goes to the section's heading (the button pressed may be gone). Before it, from the
 * same answer, the staff viewing the account now (StaffViews), when there are any.
 */
export function Sessions() {
  const { t } = useTranslation();
  const id = useId();
  const zone = timeZone(useConfig().config);
  const query = useSessions();
  const revoke = useRevokeSession();
  const others = useRevokeOthers();
  const [asking, setAsking] = useState<Asking>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = ordered(query.data?.sessions ?? []);
  const otherCount = sessions.filter((s) => !s.current).length;
  const busy = revoke.isPending || others.isPending;

  const failed = (err: unknown) => {
    // A 403 (staff viewing the account) is already told by the runtime; a 401 ends the session.
    if (isHttpError(err) && (err.status === 403 || err.status === 401)) return;
    addToast({ type: 'error', text: t('privacy.sessions.failed'), timeout: 5000 });
  };

  const signOutOne = (session: PrivacySession) => {
    setAsking(null);
    if (busy) return;
    const name = deviceName(session, t);
    revoke.mutate(session.id, {
      onSuccess: () => {
        track('my_details_sign_out_device');
        addToast({ type: 'success', text: t('privacy.sessions.signedOut', { device: name }) });
        heading.current?.focus();
      },
      onError: (err) => {
        if (isHttpError(err) && err.status === 404) {
          addToast({ type: 'info', text: t('privacy.sessions.alreadyGone') });
          heading.current?.focus();
        } else failed(err);
      },
    });
  };

  const signOutOthers = () => {
    setAsking(null);
    if (busy) return;
    others.mutate(undefined, {
      onSuccess: ({ revoked }) => {
        track('my_details_sign_out_others', { count: revoked });
        addToast({ type: 'success', text: t(revoked > 0 ? 'privacy.sessions.othersSignedOut' : 'privacy.sessions.noOthers') });
        heading.current?.focus();
      },
      onError: failed,
    });
  };

  const ask = (next: Asking, button: HTMLButtonElement) => {
    opener.current = button;
    setAsking(next);
  };

  return (
    <>
      {/* Staff viewing the account now come first: the more urgent thing to see. */}
      {query.data && <StaffViews views={query.data.staff_views ?? []} zone={zone} fallback={() => heading.current} />}
      <section className="card privacy-section" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          {t('privacy.sessions.title')}
        </h2>
        <p className="muted">{t('privacy.sessions.intro')}</p>
        {query.isPending ? (
          <Loading />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <ul className="list sessions">
              {sessions.map((s) => (
                <Session
                  key={s.id}
                  session={s}
                  zone={zone}
                  busy={revoke.isPending && revoke.variables === s.id}
                  onSignOut={(session, button) => ask({ kind: 'one', session }, button)}
                />
              ))}
            </ul>
            {otherCount > 0 ? (
              <WriteButton
                type="button"
                className="btn btn-secondary sessions__others"
                aria-busy={others.isPending || undefined}
                onClick={(e) => ask({ kind: 'others' }, e.currentTarget)}
              >
                {others.isPending ? t('privacy.sessions.signingOut') : t('privacy.sessions.signOutOthers')}
              </WriteButton>
            ) : (
              <p className="muted sessions__only">{t('privacy.sessions.onlyThis')}</p>
            )}
          </>
        )}
        {asking && (
          <Dialog labelledBy={`${id}-ask`} describedBy={`${id}-ask-text`} onClose={() => setAsking(null)} returnFocus={opener.current}>
            {asking.kind === 'one' ? (
              <>
                <h2 id={`${id}-ask`}>{t('privacy.sessions.confirmOneTitle')}</h2>
                <p id={`${id}-ask-text`}>
                  <BdiTrans k="privacy.sessions.confirmOneText" values={{ device: deviceName(asking.session, t) }} />
                </p>
              </>
            ) : (
              <>
                <h2 id={`${id}-ask`}>{t('privacy.sessions.confirmOthersTitle')}</h2>
                <p id={`${id}-ask-text`}>{t('privacy.sessions.confirmOthersText')}</p>
              </>
            )}
            <div className="dialog__actions">
              <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)} data-autofocus>
                {t('privacy.cancel')}
              </button>
              <WriteButton
                type="button"
                className="btn"
                onClick={() => (asking.kind === 'one' ? signOutOne(asking.session) : signOutOthers())}
              >
                {asking.kind === 'one' ? t('privacy.sessions.confirmOne') : t('privacy.sessions.signOutOthers')}
              </WriteButton>
            </div>
          </Dialog>
        )}
      </section>
    </>
  );
}
