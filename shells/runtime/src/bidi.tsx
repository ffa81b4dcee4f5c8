import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

// Data values (names, emails, store and reward names, amounts) keep their own direction inside
// right-to-left pages: each one is isolated in a <bdi>, so "$10 voucher" never reads "voucher $10".

/** Isolates one data value from the surrounding text direction. */
export function Bdi({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}

const MARK = '\u0001';
// eslint-disable-next-line no-control-regex -- U+0001 is the placeholder marker (MARK) on purpose: it never occurs in a translation
const SPLIT = /\u0001(\d+)\u0001/;

/**
 * Splits a translation whose placeholders were filled with markers into text and <bdi> parts.
 * Exported for tests; components use <BdiTrans>.
 */
export function isolateValues(text: string, values: ReactNode[]): ReactNode[] {
  return text.split(SPLIT).map((part, i) => (i % 2 === 0 ? part : <bdi key={i}>{values[Number(part)]}</bdi>));
}

export interface BdiTransProps {
  /** Catalog key. */
  k: string;
  /** Namespace; the provider's default when omitted. */
  ns?: string;
  /** Data values, each rendered in its own <bdi>. */
  values: Record<string, ReactNode>;
  /** Plain i18next options (count, context…), not isolated. */
  options?: Record<string, unknown>;
}

/** t(k, values) with every data value isolated in a <bdi>. */
export function BdiTrans({ k, ns, values, options }: BdiTransProps) {
  const { t } = useTranslation(ns);
  const names = Object.keys(values);
  const markers: Record<string, string> = {};
  names.forEach((name, i) => {
    markers[name] = `${MARK}${i}${MARK}`;
  });
  const text = t(k, { ...options, ...markers }) as string;
  return (
    <>
      {isolateValues(
        text,
        names.map((n) => values[n]),
      )}
    </>
  );
}
