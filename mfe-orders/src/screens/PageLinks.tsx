import { useTranslation } from 'react-i18next';
import { SubNav } from '@portal/kit/mfe-screens';

/** Links between this MFE's pages (only My Orders is in the shell's tab bar). */
export function PageLinks() {
  const { t } = useTranslation();
  const items = [
    { href: '/transactions', label: t('orders.title') },
    { href: '/claim-transaction', label: t('claim.title') },
    { href: '/wishlist', label: t('wishlistScreen.title') },
  ];
  return <SubNav label={t('nav.label')} items={items} />;
}
