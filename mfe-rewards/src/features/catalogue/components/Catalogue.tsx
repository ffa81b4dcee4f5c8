import { useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, Link, TAB_CLICK_EVENTS, track, useAuth, type CatalogueItem } from '@portal/runtime';
import { NoData } from '@portal/kit/offline-data';
import { formatNumber } from '../../../lib/format';
import { useCatalogue } from '../hooks/use-catalogue';
import { RedeemDialog } from './RedeemDialog';
import { useContentText } from '@portal/kit/content';

function Item({
  item,
  readOnly,
  onRedeem,
}: {
  item: CatalogueItem;
  readOnly: boolean;
  onRedeem: (e: MouseEvent<HTMLButtonElement>) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const text = useContentText();
  const needId = `catalogue-${item.id}-need`;
  const name = (
    <span className="visually-hidden">
      {' '}
      <bdi>{text(item, 'name')}</bdi>
    </span>
  );
  return (
    <li className={`catalogue-item${item.affordable ? '' : ' catalogue-item--short'}`}>
      <h3 className="catalogue-item__name">
        <Bdi>{text(item, 'name')}</Bdi>
      </h3>
      {item.description && (
        <p className="muted catalogue-item__description">
          <Bdi>{text(item, 'description')}</Bdi>
        </p>
      )}
      <p className="catalogue-item__cost amount">{t('points.amount', { count: item.points, points: formatNumber(item.points, lang) })}</p>
      {item.valid_days > 0 && <p className="muted catalogue-item__valid">{t('catalogue.validFor', { count: item.valid_days })}</p>}
      {item.terms && (
        <details className="catalogue-item__terms">
          <summary>{t('catalogue.terms')}</summary>
          <p>
            <Bdi>{text(item, 'terms')}</Bdi>
          </p>
        </details>
      )}
      <div className="catalogue-item__action">
        {!item.affordable && (
          <p id={needId} className="catalogue-item__need">
            {t('catalogue.need', { count: item.points_needed, points: formatNumber(item.points_needed, lang) })}
          </p>
        )}
        {!readOnly &&
          (item.affordable ? (
            <button type="button" className="btn" onClick={onRedeem}>
              {t('catalogue.redeem')}
              {name}
            </button>
          ) : (
            // Not affordable yet: looks off, stays focusable, and says why.
            <button type="button" className="btn btn-off" aria-disabled="true" aria-describedby={needId}>
              {t('catalogue.redeem')}
              {name}
            </button>
          ))}
      </div>
    </li>
  );
}

/** What points can buy; "Redeem" asks for confirmation first. */
export function Catalogue({ balance }: { balance: number | undefined }) {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  const query = useCatalogue();
  const [chosen, setChosen] = useState<CatalogueItem | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  let body;
  if (!query.data) body = <NoData query={query} />;
  else if (query.data.data.length === 0) body = <p className="muted">{t('catalogue.empty')}</p>;
  else {
    const items = query.data.data;
    body = (
      <>
        {impersonating && <p className="notice card">{t('catalogue.readOnly')}</p>}
        <ul className="catalogue">
          {items.map((item) => (
            <Item
              key={item.id}
              item={item}
              readOnly={impersonating}
              onRedeem={(e) => {
                opener.current = e.currentTarget;
                setChosen(item);
              }}
            />
          ))}
        </ul>
        {items.some((i) => !i.affordable) && (
          <p className="catalogue__earn">
            {t('catalogue.earnMore')}{' '}
            <Link href="/offers" onClick={() => track(TAB_CLICK_EVENTS['/offers'])}>
              {t('catalogue.earnLink')}
            </Link>
          </p>
        )}
      </>
    );
  }
  return (
    <section className="card" aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">{t('catalogue.heading')}</h2>
      {body}
      {chosen && <RedeemDialog item={chosen} balance={balance} opener={opener.current} onClose={() => setChosen(null)} />}
    </section>
  );
}
