import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Loading } from '@portal/runtime';
import { useProfile } from '../../../api/profile';

/** Attribute namespaces that are not size preferences. */
const NOT_SIZES = new Set(['locale', 'qantas']);

function show(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** /size — read-only view of the size attributes saved on the profile. */
export function MySize() {
  const { t } = useTranslation();
  const query = useProfile();
  const groups = Object.entries(query.data?.custom_attributes ?? {}).filter(
    ([ns, attrs]) => !NOT_SIZES.has(ns) && attrs && Object.keys(attrs).length > 0,
  );
  return (
    <section className="page" aria-labelledby="size-title">
      <h1 id="size-title" className="page-title">
        {t('size.title')}
      </h1>
      <p className="lead">{t('size.intro')}</p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : groups.length === 0 ? (
        <p className="card">{t('size.empty')}</p>
      ) : (
        groups.map(([ns, attrs]) => (
          <section key={ns} className="card" aria-label={ns}>
            <h2>{ns}</h2>
            <dl className="dl">
              {Object.entries(attrs).map(([key, value]) => (
                <div key={key} style={{ display: 'contents' }}>
                  <dt>{key}</dt>
                  <dd>
                    <Bdi>{show(value)}</Bdi>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))
      )}
    </section>
  );
}
