import { useTranslation } from 'react-i18next';
import { ErrorState, Loading, timeZone, useAuth, useConfig } from '@portal/runtime';
import { useProfile } from '../../../api/profile';
import { profileSettings } from '../../../lib/settings';
import { formatDateTime } from '../../../lib/format';
import { useCommsHistory, useUpdateComms } from '../hooks/use-comms';
import { WriteFieldset } from '@portal/kit/offline';

/** A preference's name: a channel (email, sms…) or a topic (offers, news…). */
function usePreferenceName() {
  const { t } = useTranslation();
  return (key: string) => t(`messaging.channels.${key}`, { defaultValue: t(`messaging.topics.${key}`, { defaultValue: key }) });
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
  const name = usePreferenceName();
  const update = useUpdateComms();
  if (!keys.length) return null;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <WriteFieldset className="fieldset" disabled={disabled} aria-labelledby={id}>
        <ul className="list">
          {keys.map((key) => (
            <li key={key}>
              <label className="switch-row" htmlFor={`comms-${key}`}>
                <span>{name(key)}</span>
                <input
                  id={`comms-${key}`}
                  type="checkbox"
                  role="switch"
                  className="switch"
                  checked={comms[key] === true}
                  // Errors are handled by the mutation (rollback and toast); nothing to await here.
                  onChange={(e) => update.mutate({ [key]: e.target.checked })}
                />
              </label>
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
