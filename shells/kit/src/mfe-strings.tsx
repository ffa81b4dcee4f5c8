// The i18n half of what every micro-frontend wraps its React tree in: its namespace on the shared
// i18next instance, held back until its strings are in. Has no react-query, so an MFE that does
// not use it (mfe-qff) does not pull it in; `mfe-providers` adds the query client on top.
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Loading, i18n, registerCatalogs, type Catalogs } from '@portal/runtime';

export type StringsProvider = (props: { children: ReactNode }) => ReactNode;

/** Registers the MFE's catalogs and returns a provider giving its tree that namespace. */
export function createMfeStrings(ns: string, catalogs: Catalogs): StringsProvider {
  registerCatalogs(ns, catalogs);

  /** Holds the tree back until this namespace is in for the current language (no flash of English). */
  function WhenStringsReady({ children }: { children: ReactNode }) {
    const { ready } = useTranslation(ns);
    return ready ? children : <Loading />;
  }

  return function Strings({ children }: { children: ReactNode }) {
    return (
      <I18nextProvider i18n={i18n} defaultNS={ns}>
        <WhenStringsReady>{children}</WhenStringsReady>
      </I18nextProvider>
    );
  };
}
