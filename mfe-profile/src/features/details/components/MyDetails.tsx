import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Loading, type Profile } from '@portal/runtime';
import { useProfile } from '../../../api/profile';
import { StaffAccess } from './StaffAccess';

function capitalise(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

function Details({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const notSet = t('profile.notSet');
  const lang = profile.custom_attributes?.locale?.language;
  const identities = profile.identities ?? [];
  const name = [profile.first_name, profile.last_name].filter(Boolean).join(' ');
  return (
    <>
      <div className="card">
        <dl className="dl">
          <dt>{t('profile.name')}</dt>
          <dd>{name ? <Bdi>{name}</Bdi> : notSet}</dd>
          <dt>{t('profile.email')}</dt>
          <dd>{profile.email ? <Bdi>{profile.email}</Bdi> : notSet}</dd>
          <dt>{t('profile.tier')}</dt>
          <dd>{profile.tier_handle ? <span className="badge">{capitalise(profile.tier_handle)}</span> : notSet}</dd>
          <dt>{t('profile.region')}</dt>
          <dd>{profile.region?.handle ? profile.region.handle.toUpperCase() : notSet}</dd>
          <dt>{t('profile.language')}</dt>
          <dd>{typeof lang === 'string' ? t(`language.${lang}`, { ns: 'runtime', defaultValue: lang }) : notSet}</dd>
        </dl>
      </div>
      <section className="card" aria-labelledby="identities-title">
        <h2 id="identities-title">{t('profile.identities')}</h2>
        {identities.length === 0 ? (
          <p className="muted">{t('profile.noIdentities')}</p>
        ) : (
          <ul className="list">
            {identities.map((id) => (
              <li key={`${id.handle}:${id.identifier}`} className="row">
                <span>{t(`profile.identity.${id.handle}`, { defaultValue: id.handle })}</span>
                <span>
                  <Bdi>{id.identifier}</Bdi>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** /profile — My Details. */
export function MyDetails() {
  const { t } = useTranslation();
  const query = useProfile();
  return (
    <section className="page" aria-labelledby="profile-title">
      <h1 id="profile-title" className="page-title">
        {t('profile.title')}
      </h1>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <Details profile={query.data} />
          <StaffAccess />
        </>
      )}
    </section>
  );
}
