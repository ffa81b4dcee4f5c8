import { useCallback, useEffect, useState } from 'react';

/** Seconds a resend waits by default. */
export const RESEND_COOLDOWN_S = 30;

/**
 * A countdown in whole seconds: `start(n)` begins it, `left` is what remains (0 when over). Used so
 * a "Resend" button cannot be pressed again at once, and says when it can.
 */
export function useCooldown(): { left: number; start: (seconds?: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [left]);
  const start = useCallback((seconds: number = RESEND_COOLDOWN_S) => {
    const t = Date.now();
    setNow(t);
    setUntil(t + seconds * 1000);
  }, []);
  return { left, start };
}
