import { useTranslation } from 'react-i18next';
import { Link, usePathname, useSearch } from '@portal/runtime';
import { StatusScreen } from './StatusScreen';

/** Shown on a protected route to a visitor who is not signed in. */
export function NotLoggedIn() {
  const { t } = useTranslation('shell');
  const path = usePathname();
  const search = useSearch();
  const href = `/?redirect=${encodeURIComponent(path + search)}`;
  return (
    <StatusScreen title={t('notLoggedIn.title')}>
      <p>{t('notLoggedIn.text')}</p>
      <Link className="btn" href={href}>
        {t('notLoggedIn.action')}
      </Link>
    </StatusScreen>
  );
}
