import { useTranslation } from 'react-i18next';
import { SubNav } from '@portal/kit/mfe-screens';

/** Links between this MFE's pages (only the My Details tab is in the shell's tab bar). */
export function PageLinks() {
  const { t } = useTranslation();
  const items = [
    { href: '/profile', label: t('profile.title') },
    { href: '/size', label: t('size.title') },
    { href: '/messaging', label: t('messaging.title') },
    { href: '/preference', label: t('preference.title') },
    { href: '/profile/privacy', label: t('privacy.navLabel') },
  ];
  return <SubNav label={t('nav.label')} items={items} />;
}
