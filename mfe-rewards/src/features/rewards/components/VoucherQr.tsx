import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Drawn = { size: number; path: string } | 'failed' | null;

/** The quiet zone around the code, in modules (what scanners expect). */
const QUIET = 4;

/**
 * The voucher code as a QR code a till can scan, drawn as SVG by lean-qr. The library is loaded
 * here only (its own chunk), so the rewards list does not carry it.
 */
export function VoucherQr({ code }: { code: string }) {
  const { t } = useTranslation();
  const [drawn, setDrawn] = useState<Drawn>(null);
  useEffect(() => {
    let live = true;
    setDrawn(null);
    Promise.all([import(/* webpackChunkName: "lean-qr" */ 'lean-qr'), import(/* webpackChunkName: "lean-qr" */ 'lean-qr/extras/svg')])
      .then(([{ generate, correction }, { toSvgPath }]) => {
        const bitmap = generate(code, { minCorrectionLevel: correction.M });
        if (live) setDrawn({ size: bitmap.size, path: toSvgPath(bitmap) });
      })
      .catch(() => {
        if (live) setDrawn('failed');
      });
    return () => {
      live = false;
    };
  }, [code]);

  if (drawn === 'failed') return <p className="voucher__qr-failed muted">{t('detail.qrFailed')}</p>;
  if (!drawn) return <div className="voucher__qr voucher__qr--loading" aria-hidden="true" />;
  const box = drawn.size + QUIET * 2;
  return (
    <svg
      className="voucher__qr"
      role="img"
      aria-label={t('detail.qrLabel', { code })}
      viewBox={`${-QUIET} ${-QUIET} ${box} ${box}`}
      shapeRendering="crispEdges"
      data-code={code}
    >
      <rect x={-QUIET} y={-QUIET} width={box} height={box} fill="#fff" />
      <path d={drawn.path} fill="#000" />
    </svg>
  );
}
