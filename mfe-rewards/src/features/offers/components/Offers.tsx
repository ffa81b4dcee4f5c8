import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Loading } from '@portal/runtime';
import { useBenefits } from '../hooks/use-benefits';
import { formatDate } from '../../../utils/format';

/** /offers — member offers (benefits). */
export function Offers() {
  const { t, i18n } = useTranslation();
  const query = useBenefits();
  return (
    <section className="page" aria-labelledby="offers-title">
      <h1 id="offers-title" className="page-title">
        {t('offers.title')}
      </h1>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.data.length === 0 ? (
        <p className="card">{t('offers.empty')}</p>
      ) : (
        <div className="card-grid">
          {query.data.data.map((offer) => {
            const ends = formatDate(offer.ends_at, i18n.language);
            return (
              <article key={offer.id} className="card">
                <h2>
                  <Bdi>{offer.name}</Bdi>
                </h2>
                {offer.description && (
                  <p>
                    <Bdi>{offer.description}</Bdi>
                  </p>
                )}
                {ends && <p className="muted">{t('offers.ends', { date: ends })}</p>}
              </article>
            );
          })}
        </div>
      )}
    </section>
  );
}
