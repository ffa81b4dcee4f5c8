import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Loading } from '@portal/runtime';
import { useQffPoints } from '../hooks/use-qff-points';

const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

/** Frequent-flyer panel: number and points when linked, a short explanation otherwise. */
export function QffPanel() {
  const { t, i18n } = useTranslation();
  const query = useQffPoints();
  return (
    <section className="card" aria-labelledby="qff-title">
      <h2 id="qff-title">{t('qff.title')}</h2>
      {query.status === 'pending' ? (
        <Loading />
      ) : query.status === 'error' ? (
        <ErrorState error={query.error} onRetry={query.refetch} />
      ) : query.data.linked ? (
        <dl className="dl">
          <dt>{t('qff.number')}</dt>
          <dd>
            <Bdi>{query.data.qff_number}</Bdi>
          </dd>
          <dt>{t('qff.points')}</dt>
          <dd>
            <strong>{new Intl.NumberFormat(localeFor(i18n.language)).format(query.data.points ?? 0)}</strong>
          </dd>
        </dl>
      ) : (
        <p className="muted">{t('qff.notLinked')}</p>
      )}
    </section>
  );
}
