// One Idempotency-Key per confirmation of a write that must happen once (a redemption, a points
// conversion); a retry of that confirmation sends the same key. Bundled into each MFE that uses it.
/**
 * A fresh Idempotency-Key (a UUID v4). `crypto.randomUUID` only exists in secure contexts (and not
 * in every test DOM): then the same from `getRandomValues`, and as a last resort from the clock and
 * Math.random (still unique enough for one member's confirmations).
 */
export function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: Partial<Crypto> }).crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  let bytes: Uint8Array;
  if (typeof c?.getRandomValues === 'function') {
    bytes = c.getRandomValues(new Uint8Array(16));
  } else {
    bytes = new Uint8Array(16);
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    const now = Date.now();
    for (let i = 0; i < 6; i++) bytes[i] ^= Math.floor(now / 256 ** i) & 0xff;
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
