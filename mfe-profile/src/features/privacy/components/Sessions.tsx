import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, ErrorState, Loading, addToast, isHttpError, logout, timeZone, track, useConfig } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { formatNumber } from '@portal/kit/format';
import { WriteButton } from '@portal/kit/offline';
import { formatDateTime } from '../../../lib/format';
import { revokeDevice, type PrivacyDevice, type SessionList } from '../api/privacy';
import { useRevokeDevice, useRevokeOthers, useSessions } from '../hooks/use-sessions';
import { DEVICE_TYPES, deviceName, deviceTypeKey, relativeTime } from '../lib/device';
import { Icon, type IconName } from './Icon';
import { StaffViews } from './StaffViews';

type Asking = { kind: 'one'; device: PrivacyDevice } | { kind: 'others' } | null;

/** A device's row: the device, and the sign-in address of its newest session. */
type Row = PrivacyDevice & { ip?: string | null };

/** The server's devices (this one first), each with its newest session's address. */
const rows = (list?: SessionList): Row[] =>
  (list?.devices ?? []).map((d) => ({ ...d, ip: list?.sessions.find((s) => s.id === d.session_ids[0])?.ip }));

function Device({
  row,
  zone,
  busy,
  onSignOut,
  onSignOutHere,
}: {
  row: Row;
  zone: string;
  busy: boolean;
  onSignOut: (row: Row, button: HTMLButtonElement) => void;
  onSignOutHere: (row: Row) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = deviceName(row, t);
  const icon: IconName = row.device && (DEVICE_TYPES as readonly string[]).includes(row.device) ? row.device : 'unknown';
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, i18n.language, zone)}</time>;
  return (
    <li className={`session${row.current ? ' session--current' : ''}`}>
      <Icon name={icon} className="session__icon" />
      <div className="session__body">
        <p className="session__name">
          <strong>
            {row.browser && row.os ? (
              <BdiTrans k="privacy.sessions.browserOnOs" values={{ browser: row.browser, os: row.os }} />
            ) : (
              <Bdi>{name}</Bdi>
            )}
          </strong>
          {row.current && <span className="badge">{t('privacy.sessions.thisDevice')}</span>}
        </p>
        <dl className="dl session__facts">
          <dt>{t('privacy.sessions.deviceLabel')}</dt>
          <dd>{t(deviceTypeKey(row))}</dd>
          <dt>{t('privacy.sessions.place')}</dt>
          <dd>{row.place ? <Bdi>{row.place}</Bdi> : <span className="muted">{t('privacy.sessions.unknownPlace')}</span>}</dd>
          <dt>{t('privacy.sessions.signedIn')}</dt>
          <dd>{when(row.signed_in_at)}</dd>
          <dt>{t('privacy.sessions.signIns')}</dt>
          <dd>{formatNumber(row.sign_ins, i18n.language)}</dd>
          {row.last_seen_at && (
            <>
              <dt>{t('privacy.sessions.lastSeen')}</dt>
              <dd>
                {when(row.last_seen_at)} ({relativeTime(row.last_seen_at, i18n.language)})
              </dd>
            </>
          )}
          {row.ip && (
            <>
              <dt>{t('privacy.sessions.ip')}</dt>
              <dd>
                <bdi dir="ltr">{row.ip}</bdi>
              </dd>
            </>
          )}
        </dl>
      </div>
      <div className="session__action">
        {row.current ? (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => onSignOutHere(row)}>
            {t('privacy.sessions.signOutHere')}
          </button>
        ) : (
          <WriteButton
            type="button"
            className="btn btn-secondary btn-small"
            aria-busy={busy || undefined}
            reasonShown={false}
            onClick={(e) => onSignOut(row, e.currentTarget)}
          >
            {busy ? t('privacy.sessions.signingOut') : t('privacy.sessions.signOut')}
            <span className="visually-hidden">
              {' '}
              ({name}, {formatDateTime(row.signed_in_at, i18n.language, zone)})
            </span>
          </WriteButton>
        )}
      </div>
    </li>
  );
}

/**
 * My sessions: every device signed in to the account, one row however often it signed in, this
 * one first and marked. Another device is signed out (every session of it) with
 * DELETE /api/privacy/devices/{key}, all of them but this one with revoke-others (each after a
 * confirmation); this one by logging out (its older sessions ended first). The list is read again after each, and the
 * focus goes to the section's heading (the button pressed may be gone). Before it, from the
 * same answer, the staff viewing the account now (StaffViews), when there are any.
 */
export function Sessions() {
  const { t } = useTranslation();
  const id = useId();
  const zone = timeZone(useConfig().config);
  const query = useSessions();
  const revoke = useRevokeDevice();
  const others = useRevokeOthers();
  const [asking, setAsking] = useState<Asking>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const devices = rows(query.data);
  const otherCount = devices.filter((d) => !d.current).length;
  const busy = revoke.isPending || others.isPending;

  const failed = (err: unknown) => {
    // A 403 (staff viewing the account) is already told by the runtime; a 401 ends the session.
    if (isHttpError(err) && (err.status === 403 || err.status === 401)) return;
    addToast({ type: 'error', text: t('privacy.sessions.failed'), timeout: 5000 });
  };

  const signOutOne = (device: PrivacyDevice) => {
    setAsking(null);
    if (busy) return;
    const name = deviceName(device, t);
    revoke.mutate(device.key, {
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

  // This device's older sessions end with it; then the member's own sign-out (the Logged out
  // screen). Not through the mutation: the list must not be read again once this session ends.
  const signOutHere = (device: PrivacyDevice) => {
    if (device.sign_ins <= 1) return void logout();
    void revokeDevice(device.key).then(
      () => logout(),
      () => logout(),
    );
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
              {devices.map((d) => (
                <Device
                  key={d.key}
                  row={d}
                  zone={zone}
                  busy={revoke.isPending && revoke.variables === d.key}
                  onSignOut={(device, button) => ask({ kind: 'one', device }, button)}
                  onSignOutHere={signOutHere}
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
                  <BdiTrans k="privacy.sessions.confirmOneText" values={{ device: deviceName(asking.device, t) }} />
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
                onClick={() => (asking.kind === 'one' ? signOutOne(asking.device) : signOutOthers())}
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
