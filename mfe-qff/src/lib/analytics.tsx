import { createContext, useCallback, useContext } from 'react';
import { track } from '@portal/runtime';

// Native analytics events are prefixed by the tab they happen in (spec 9): the same link or
// conversion is `rewards_qff_link` in the Rewards tab and `my_details_qff_link` in My Details.
const Prefix = createContext('rewards_');

/** The tab prefix for the events of the tree below, e.g. 'my_details_'. */
export const AnalyticsPrefix = Prefix.Provider;

/** track() with this view's tab prefix: useTrack()('qff_link') sends e.g. rewards_qff_link. */
export function useTrack(): (name: string, params?: Record<string, unknown>) => void {
  const prefix = useContext(Prefix);
  return useCallback((name, params) => track(`${prefix}${name}`, params), [prefix]);
}
