import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, Loading, timeZone, useAuth, useConfig } from '@portal/runtime';
import { useProfile } from '../../shared/hooks/use-profile';
import { profileSettings } from '../../../lib/settings';
import { formatDateTime } from '../../../lib/format';
import { useCommsHistory, useUpdateComms } from '../hooks/use-comms';
import { WriteFieldset } from '@portal/kit/offline';

/** A preference's name: a channel (email, sms…) or a topic (offers, news…). */
function usePreferenceName() {
  const { t } = useTranslation();
  return (key: string) => t(`messaging.channels.${key}`, { defaultValue: t(`messaging.topics.${key}`, { defaultValue: key }) });
}

/** What the last change of one switch came to: saved, or refused (and put back). */
type SwitchState = 'saved' | 'failed';

/** How long "Saved" stays next to a switch. */
export const SAVED_VISIBLE_MS = 4000;

/**
 * The last change's outcome for each switch, shown next to it: "Saved" for a few seconds, or
 * "Not saved" until the switch is changed again.
 */
function useSwitchStates() {
  const [states, setStates] = useState<Record<string, SwitchState | undefined>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const set = (key: string, state: SwitchState | undefined) => {
    clearTimeout(timers.current.get(key));
    timers.current.delete(key);
    setStates((s) => ({ ...s, [key]: state }));
    if (state === 'saved')
      timers.current.set(
        key,
        setTimeout(() => {
          timers.current.delete(key);
          setStates((s) => ({ ...s, [key]: undefined }));
        }, SAVED_VISIBLE_MS),
      );
  };
  return [states, set] as const;
}

function Switches({
  id,
  title,
  keys,
  comms,
  disabled,
}: {
  id: string;
  title: string;
  keys: string[];
  comms: Record<string, boolean>;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const name = usePreferenceName();
  const update = useUpdateComms();
  const [states, setState] = useSwitchStates();
  if (!keys.length) return null;
  const change = (key: string, value: boolean) => {
    setState(key, undefined);
    // The mutation rolls a refusal back and toasts it; the outcome is also told next to the switch.
    update.mutateAsync({ [key]: value }).then(
      () => setState(key, 'saved'),
      () => setState(key, 'failed'),
    );
  };
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <WriteFieldset className="fieldset" disabled={disabled} aria-labelledby={id}>
        <ul className="list">
          {keys.map((key) => (
            <li key={key} className="switch-row">
              <label className="switch-row__name" htmlFor={`comms-${key}`}>
                {name(key)}
              </label>
              {/* Always present, so a screen reader hears what appears in it. */}
              <span role="status" aria-live="polite" className={`switch-status${states[key] === 'failed' ? ' switch-status--failed' : ''}`}>
                {states[key] === 'saved' ? t('messaging.switchSaved') : states[key] === 'failed' ? t('messaging.switchFailed') : ''}
              </span>
              <input
                id={`comms-${key}`}
                type="checkbox"
                role="switch"
                className="switch"
                checked={comms[key] === true}
                onChange={(e) => change(key, e.target.checked)}
              />
            </li>
          ))}
        </ul>
      </WriteFieldset>
    </section>
  );
}

/** Who changed a consent: the member, staff, or an import. */
const SOURCES = ['member', 'staff', 'import'];

function History() {
  const { t, i18n } = useTranslation();
  const { config } = useConfig();
  const zone = timeZone(config);
  const name = usePreferenceName();
  const query = useCommsHistory();
  const entries = query.data?.data ?? [];
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{t('messaging.history.title')}</h2>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : entries.length === 0 ? (
        <p className="muted">{t('messaging.history.empty')}</p>
      ) : (
        <ul className="list">
          {entries.map((entry, i) => (
            <li key={`${entry.at}:${entry.channel}:${i}`}>
              <strong>
                {name(entry.channel)}: {entry.value ? t('messaging.on') : t('messaging.off')}
              </strong>
              <div className="muted">
                <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language, zone)}</time>
                {' · '}
                {t(`messaging.history.source.${SOURCES.includes(entry.source) ? entry.source : 'other'}`)}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /messaging — Messaging Preferences: channels and topics switched on and off at once, and the consent history. */
export function Messaging() {
  const { t } = useTranslation();
  const { config } = useConfig();
  const { impersonating } = useAuth();
  const query = useProfile();
  const { channels, topics } = profileSettings(config).comms;
  const comms = query.data?.attributes?.comms ?? {};
  return (
    <section className="page" aria-labelledby="messaging-title">
      <h1 id="messaging-title" className="page-title">
        {t('messaging.title')}
      </h1>
      <p className="lead">{t('messaging.intro')}</p>
      {query.data ? (
        <>
          {impersonating && <p className="card notice">{t('form.readOnly')}</p>}
          <Switches id="channels-title" title={t('messaging.channelsTitle')} keys={channels} comms={comms} disabled={impersonating} />
          <Switches id="topics-title" title={t('messaging.topicsTitle')} keys={topics} comms={comms} disabled={impersonating} />
          <History />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
