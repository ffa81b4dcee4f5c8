import { useTranslation } from 'react-i18next';
import { ErrorState, Loading, useAuth, useConfig } from '@portal/runtime';
import { useProfile } from '../../shared/hooks/use-profile';
import { profileSettings } from '../../../lib/settings';
import { parseSize } from '../lib/sizes';
import { GarmentForm } from './GarmentForm';

/** /size — My Size: one form per garment of the tenant's size chart (config components.profile.sizes). */
export function MySize() {
  const { t } = useTranslation();
  const { config } = useConfig();
  const { impersonating } = useAuth();
  const query = useProfile();
  const sizes = Object.entries(profileSettings(config).sizes);
  const stored = query.data?.custom_attributes?.size ?? {};
  return (
    <section className="page" aria-labelledby="size-title">
      <h1 id="size-title" className="page-title">
        {t('size.title')}
      </h1>
      <p className="lead">{t('size.intro')}</p>
      {query.data ? (
        sizes.length === 0 ? (
          <p className="card">{t('size.unavailable')}</p>
        ) : (
          <>
            {impersonating && <p className="card notice">{t('form.readOnly')}</p>}
            {sizes.map(([garment, chart]) => (
              <GarmentForm key={garment} garment={garment} chart={chart} value={parseSize(stored[garment])} readOnly={impersonating} />
            ))}
          </>
        )
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
