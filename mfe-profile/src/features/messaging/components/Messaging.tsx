import { useTranslation } from 'react-i18next';
import { ErrorState, Loading } from '@portal/runtime';
import { useProfile } from '../../../api/profile';

/** /messaging — read-only view of attributes.comms. */
export function Messaging() {
  const { t } = useTranslation();
  const query = useProfile();
  const comms = Object.entries(query.data?.attributes?.comms ?? {});
  return (
    <section className="page" aria-labelledby="messaging-title">
      <h1 id="messaging-title" className="page-title">
        {t('messaging.title')}
      </h1>
      <p className="lead">{t('messaging.intro')}</p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : comms.length === 0 ? (
        <p className="card">{t('messaging.empty')}</p>
      ) : (
        <ul className="card list">
          {comms.map(([channel, on]) => (
            <li key={channel} className="row">
              <span>{t(`messaging.channels.${channel}`, { defaultValue: channel })}</span>
              <strong>{on ? t('messaging.on') : t('messaging.off')}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
