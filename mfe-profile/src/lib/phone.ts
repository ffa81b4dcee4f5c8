// A member's phone number as libphonenumber reads it (libphonenumber-js with its "min" metadata:
// lengths and prefixes per country), the same rules the profile service applies in full: written
// internationally (+61 400 000 001) or as it is dialled in the member's country (0400 000 001),
// kept in E.164. The library and its metadata (about 25 KB compressed) load when the phone field is first
// used, not with the page.
import type { CountryCode } from 'libphonenumber-js/min';

type PhoneLib = typeof import('./phone-lib');
let lib: Promise<PhoneLib> | null = null;

/** Starts loading the library (on the field's first focus); the same promise after that. */
export function loadPhoneLib(): Promise<PhoneLib> {
  lib ??= import(/* webpackChunkName: "phone" */ './phone-lib');
  return lib;
}

/**
 * The country a number written without `+` is read in: the address's country (as chosen in the
 * form), else the profile's region when it is a country code, else the tenant's default
 * (`general.defaultCountry`), else AU. An ISO 3166-1 alpha-2 code.
 */
export function phoneRegion(
  addressCountry: string | undefined,
  regionHandle: string | undefined,
  tenantDefault: string | undefined,
): string {
  for (const c of [addressCountry, regionHandle, tenantDefault]) {
    const code = c?.trim().toUpperCase();
    if (code && /^[A-Z]{2}$/.test(code)) return code;
  }
  return 'AU';
}

export type PhoneCheck =
  /** Empty (removes the number), or a number of that country (or, with +, of any): its E.164. */
  | { ok: true; e164: string }
  /** Not a number: `international` when it was written with +. */
  | { ok: false; international: boolean };

/** Reads `raw` in `region`'s national format or in international format. */
export async function checkPhone(raw: string, region: string): Promise<PhoneCheck> {
  const value = raw.trim();
  if (!value) return { ok: true, e164: '' };
  const international = value.startsWith('+');
  const { parsePhoneNumberFromString, isSupportedCountry } = await loadPhoneLib();
  if (!/^[\d\s+().-]+$/.test(value)) return { ok: false, international };
  const country = isSupportedCountry(region) ? (region as CountryCode) : undefined;
  if (!international && !country) return { ok: false, international };
  const number = parsePhoneNumberFromString(value, country ? { defaultCountry: country } : undefined);
  if (!number || number.ext || !number.isValid()) return { ok: false, international };
  return { ok: true, e164: number.number };
}
