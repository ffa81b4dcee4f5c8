import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading, useAuth } from '@portal/runtime';
import { useQffStatus } from '../features/shared/hooks/use-qff';
import { Problem } from '../components/Problem';
import { LinkWizard } from '../features/link/components/LinkWizard';
import { LinkedAccount } from '../features/account/components/LinkedAccount';
import { QffHistory } from '../features/account/components/QffHistory';
import { ConvertPoints } from '../features/convert/components/ConvertPoints';
import { Conversions } from '../features/convert/components/Conversions';
import { useFocusOnChange } from './use-focus-on-change';

/**
 * The Rewards tab's "Qantas Frequent Flyer" section. Not linked: the link wizard. Linked: the
 * account and its balance, converting points (when the tenant allows it), the conversions and the
 * airline account's recent activity.
 */
export function FullView() {
  const { t } = useTranslation();
  const id = useId();
  const { impersonating } = useAuth();
  const query = useQffStatus();
  const status = query.data;
  const heading = useFocusOnChange<HTMLHeadingElement>(status?.linked);

  let body;
  if (query.isPending) body = <Loading />;
  else if (!status) body = <Problem error={query.error} onRetry={() => void query.refetch()} />;
  else if (!status.linked) {
    body = (
      <>
        <p>{t('full.intro')}</p>
        {impersonating ? <p className="notice card">{t('readOnly')}</p> : <LinkWizard />}
        <Conversions hideWhenEmpty />
      </>
    );
  } else {
    body = (
      <>
        {impersonating && <p className="notice card">{t('readOnly')}</p>}
        <LinkedAccount status={status} />
        {status.redemption?.type === 'points' && <ConvertPoints status={status} />}
        <Conversions />
        <QffHistory />
      </>
    );
  }
  return (
    <section className="card qff" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('title')}
      </h2>
      {body}
    </section>
  );
}
