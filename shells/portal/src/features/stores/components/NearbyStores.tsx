import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoreLocation } from '@portal/runtime';
import { geolocationPermission, locate, storesNear, type Here } from '@portal/runtime/geolocation';
import { PositionNote, StoreItem } from './bits';

/** How many stores Home lists. */
export const NEAREST = 3;

type State =
  { phase: 'loading' } | { phase: 'failed' } | { phase: 'ready'; here: Here; stores: StoreLocation[]; canAsk: boolean; refused?: boolean };

/**
 * Home's "Stores near you": the three nearest, with distance and whether each is open. The
 * device position is used when the browser already allows it; otherwise the approximate IP
 * position, with a button that asks the browser (a prompt on every visit would nag).
 */
export function NearbyStores() {
  const { t } = useTranslation('stores');
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [asking, setAsking] = useState(false);

  const load = useCallback(async (ask: boolean, signal?: AbortSignal) => {
    try {
      const here = await locate({ ask, signal });
      const stores = await storesNear(here, signal);
      const permission = await geolocationPermission();
      setState({
        phase: 'ready',
        here,
        stores: stores.slice(0, NEAREST),
        canAsk: here.source !== 'device' && permission !== 'denied' && typeof navigator !== 'undefined' && !!navigator.geolocation,
        refused: ask && here.source !== 'device',
      });
    } catch {
      if (!signal?.aborted) setState({ phase: 'failed' });
    }
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    void load(false, ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const ask = async () => {
    setAsking(true);
    await load(true);
    setAsking(false);
  };

  return (
    <section className="card stores-near" aria-labelledby="stores-near-title" aria-busy={state.phase === 'loading' || asking || undefined}>
      <h2 id="stores-near-title">{t('near.title')}</h2>
      {state.phase === 'loading' && <p className="muted">{t('near.loading')}</p>}
      {state.phase === 'failed' && (
        <p role="alert">
          {t('near.failed')}{' '}
          <button type="button" className="btn-link" onClick={() => void load(false)}>
            {t('near.retry')}
          </button>
        </p>
      )}
      {state.phase === 'ready' && (
        <>
          <PositionNote here={state.here} />
          {state.refused && (
            <p className="muted" role="status">
              {t('near.deviceRefused')}
            </p>
          )}
          <ol className="store-list">
            {state.stores.map((s) => (
              <StoreItem key={s.handle} store={s} open />
            ))}
          </ol>
          {state.canAsk && (
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void ask()} disabled={asking}>
              {asking ? t('near.locating') : t('near.useDevice')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
