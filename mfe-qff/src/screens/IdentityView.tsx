import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Loading, TAB_CLICK_EVENTS, track, useAuth } from '@portal/runtime';
import { useQffStatus } from '../features/shared/hooks/use-qff';
import { Problem } from '../components/Problem';
import { LinkWizard } from '../features/link/components/LinkWizard';
import { LinkedAccount } from '../features/account/components/LinkedAccount';
import { useFocusOnChange } from './use-focus-on-change';

/**
 * The frequent-flyer identity inside My Details' linked identities: link or unlink it here;
 * converting points and the airline activity are in Rewards.
 */
export function IdentityView() {
  const { t } = useTranslation();
  const id = useId();
  const { impersonating } = useAuth();
  const query = useQffStatus();
  const status = query.data;
  const heading = useFocusOnChange<HTMLHeadingElement>(status?.linked);

  let body;
  if (query.isPending) body = <Loading />;
  else if (!status) body = <Problem error={query.error} onRetry={() => void query.refetch()} />;
  else if (!status.linked) body = impersonating ? <p className="muted">{t('identity.notLinked')}</p> : <LinkWizard headingLevel={4} />;
  else {
    body = (
      <>
        <LinkedAccount status={status} compact />
        <p className="qff-more">
          <Link href="/rewards" onClick={() => track(TAB_CLICK_EVENTS['/rewards'])}>
            {t('identity.toRewards')}
          </Link>
        </p>
      </>
    );
  }
  return (
    <section className="qff qff--identity" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('title')}
      </h3>
      {body}
    </section>
  );
}
