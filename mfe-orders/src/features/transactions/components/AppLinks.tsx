import { useTranslation } from 'react-i18next';
import { nativeActionAvailable } from '@portal/runtime';
import { NativeActionButton } from '@portal/kit/native-button';
import { Icon } from '../../../components/Icon';

const LINKS = [
  { action: 'gotoWishlist', label: 'native.wishlist', event: 'my_orders_goto_wishlist', icon: 'heart' },
  { action: 'gotoCart', label: 'native.cart', event: 'my_orders_goto_cart', icon: 'cart' },
] as const;

/**
 * Inside the native app: its wish list and its cart, each only when the app offers it
 * (gotoWishlist, gotoCart). Nothing outside the app.
 */
export function AppLinks() {
  const { t } = useTranslation();
  const offered = LINKS.filter((l) => nativeActionAvailable(l.action));
  if (offered.length === 0) return null;
  return (
    <div className="subnav app-links" role="group" aria-label={t('native.label')}>
      {offered.map((l) => (
        <NativeActionButton key={l.action} action={l.action} event={l.event} className="btn btn-secondary btn-small">
          <Icon name={l.icon} />
          {t(l.label)}
        </NativeActionButton>
      ))}
    </div>
  );
}
