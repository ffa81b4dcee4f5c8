import { useTranslation } from 'react-i18next';
import { findCountry, useCountries } from '@portal/runtime/countries';
import { Bdi, ErrorState, Loading, useAuth, type Profile } from '@portal/runtime';
import { useProfile } from '../../shared/hooks/use-profile';
import { useTiers } from '../hooks/use-tiers';
import { DetailsForm } from './DetailsForm';
import { Identities } from './Identities';
import { PrivacyLink } from './PrivacyLink';
import { StaffAccess } from './StaffAccess';
import { contentText } from '@portal/kit/content';

function capitalise(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** A member number in groups of four for reading (`1234 5678 90`), as the card shows it. */
function grouped(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * A region's name in the page's language: the browser's own names (Intl.DisplayNames), else the
 * countries list's name, else the code as it is ("AU" only when nothing knows it).
 */
export function useRegionName(handle: string | null | undefined, lang: string): string | null {
  const { countries } = useCountries();
  if (!handle) return null;
  const code = handle.toUpperCase();
  try {
    const name = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' }).of(code);
    if (name) return name;
  } catch {
    // Not a region code the browser knows (or no Intl.DisplayNames): try the list.
  }
  return findCountry(countries, handle)?.name ?? code;
}

/**
 * Name, member number (read-only: the brand issues it; the internal profile id is never shown),
 * tier (its name from GET /api/profile/tiers), region and language at a glance.
 */
function Summary({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const tiers = useTiers();
  const region = useRegionName(profile.region?.handle, i18n.language);
  const notSet = t('profile.notSet');
  const lang = profile.custom_attributes?.locale?.language;
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');
  // The tier's name as the tenant writes it, in the page's language (its default where it has none).
  const known = (tiers.data?.data ?? []).find((x) => x.handle === profile.tier_handle);
  const tier = profile.tier_handle ? (known && contentText(known, 'name', i18n.language)) || capitalise(profile.tier_handle) : null;
  return (
    <div className="card">
      <dl className="dl">
        <dt>{t('profile.name')}</dt>
        <dd>{name ? <Bdi>{name}</Bdi> : notSet}</dd>
        <dt>{t('profile.memberNumber')}</dt>
        <dd>
          {profile.memberNumber ? (
            <span dir="ltr" translate="no" className="member-number">
              {grouped(profile.memberNumber)}
            </span>
          ) : (
            notSet
          )}
        </dd>
        <dt>{t('profile.tier')}</dt>
        <dd>{tier ? <span className="badge">{tier}</span> : notSet}</dd>
        <dt>{t('profile.region')}</dt>
        <dd>{region ?? notSet}</dd>
        <dt>{t('profile.language')}</dt>
        <dd>{typeof lang === 'string' && lang ? t(`language.${lang}`, { ns: 'runtime', defaultValue: lang }) : notSet}</dd>
      </dl>
    </div>
  );
}

/** /profile — My Details. */
export function MyDetails() {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  const query = useProfile();
  return (
    <section className="page" aria-labelledby="profile-title">
      <h1 id="profile-title" className="page-title">
        {t('profile.title')}
      </h1>
      {query.data ? (
        <>
          <Summary profile={query.data} />
          {impersonating && <p className="card notice">{t('form.readOnly')}</p>}
          <DetailsForm profile={query.data} readOnly={impersonating} />
          <Identities profile={query.data} readOnly={impersonating} />
          <StaffAccess />
          <PrivacyLink />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
