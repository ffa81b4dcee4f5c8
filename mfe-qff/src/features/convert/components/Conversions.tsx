import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, Loading } from '@portal/runtime';
import { Icon } from '../../../components/Icon';
import { Problem } from '../../../components/Problem';
import { formatNumber } from '@portal/kit/format';
import { formatDate, useTimeZone } from '@portal/kit/dates';
import { useConversions } from '../hooks/use-convert';
import type { Conversion } from '../api/types';

const ICONS = { completed: 'check', pending: 'clock', failed: 'cross' } as const;

function Item({ conversion, zone }: { conversion: Conversion; zone: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const status = conversion.status in ICONS ? conversion.status : 'pending';
  return (
    <li className="qff-conversion">
      <p className="qff-conversion__what">
        <strong>
          {t('convert.rate', {
            points: t('points.amount', { count: conversion.points, points: formatNumber(conversion.points, lang) }),
            airline: t('airline.amount', { count: conversion.airline_points, points: formatNumber(conversion.airline_points, lang) }),
          })}
        </strong>
      </p>
      <p className={`status qff-status qff-status--${status}`}>
        <Icon name={ICONS[status]} />
        {t(`conversions.status.${status}`)}
      </p>
      <p className="muted qff-conversion__when">{formatDate(conversion.created_at, lang, zone)}</p>
      {status === 'pending' && <p className="qff-conversion__note">{t('conversions.pendingNote')}</p>}
      {status === 'failed' && (
        <p className="qff-conversion__note">{conversion.message ? <Bdi>{conversion.message}</Bdi> : t('conversions.failedNote')}</p>
      )}
    </li>
  );
}

/** The member's recent conversions; pending and failed ones say what that means for their points. */
export function Conversions({ hideWhenEmpty = false }: { hideWhenEmpty?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const zone = useTimeZone();
  const query = useConversions();
  const list = query.data?.data ?? [];
  if (hideWhenEmpty && list.length === 0) return null;
  let body;
  if (query.isPending) body = <Loading />;
  else if (query.isError && list.length === 0) body = <Problem error={query.error} onRetry={() => void query.refetch()} />;
  else if (list.length === 0) body = <p className="muted">{t('conversions.empty')}</p>;
  else
    body = (
      <ul className="qff-conversions">
        {list.map((c) => (
          <Item key={c.id} conversion={c} zone={zone} />
        ))}
      </ul>
    );
  return (
    <section className="qff-conversions-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('conversions.title')}</h3>
      {body}
    </section>
  );
}
