import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Loading, timeZone, useConfig, type AccessLogEntry } from '@portal/runtime';
import { formatDateTime } from '../../../lib/format';
import { useAccessLog } from '../hooks/use-access-log';

function Entry({ entry, zone }: { entry: AccessLogEntry; zone: string }) {
  const { t, i18n } = useTranslation();
  return (
    <li>
      <div className="row">
        <strong>{t(`access.actions.${entry.action}`, { defaultValue: entry.action })}</strong>
        <time dateTime={entry.at} className="muted">
          {formatDateTime(entry.at, i18n.language, zone)}
        </time>
      </div>
      <dl className="dl">
        <dt>{t('access.staff')}</dt>
        <dd>
          <Bdi>{entry.staff_name || entry.staff_id}</Bdi>
        </dd>
        <dt>{t('access.reason')}</dt>
        <dd>{entry.reason ? <Bdi>{entry.reason}</Bdi> : <span className="muted">{t('access.noReason')}</span>}</dd>
      </dl>
    </li>
  );
}

/** My Details: when staff viewed this account, who, and why (times in the tenant's zone). */
export function StaffAccess() {
  const { t } = useTranslation();
  const { config } = useConfig();
  const zone = timeZone(config);
  const query = useAccessLog();
  return (
    <section className="card" aria-labelledby="access-title">
      <h2 id="access-title">{t('access.title')}</h2>
      <p className="muted">{t('access.intro')}</p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (query.data?.data ?? []).length === 0 ? (
        <p className="muted">{t('access.empty')}</p>
      ) : (
        <ul className="list">
          {query.data.data.map((entry, i) => (
            <Entry key={`${entry.at}:${entry.action}:${i}`} entry={entry} zone={zone} />
          ))}
        </ul>
      )}
    </section>
  );
}
