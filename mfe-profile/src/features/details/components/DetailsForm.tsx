import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, useAuth, useConfig } from '@portal/runtime';
// Its own shared chunk of the runtime, loaded with this screen only.
import { findCountry, findState, useCountries } from '@portal/runtime/countries';
import { SelectField, SubmitButton, TextField } from '@portal/kit/fields';
import { toastSaved, toastWriteError, useDraft, useServerErrors, type FieldErrors } from '../../../lib/form';
import { dropDraft, keepDraft, readDraft } from '../../../lib/kept-draft';
import { checkPhone, loadPhoneLib, phoneRegion } from '../../../lib/phone';
import { UnsavedChangesGuard } from '../../../lib/unsaved';
import type { Address, Profile, ProfileUpdate } from '@portal/runtime';
import { useSaveProfile } from '../hooks/use-save-profile';
import { EmailAddress } from './EmailAddress';

/**
 * The countries with their names in the page's language (Intl.DisplayNames, from the browser's
 * own CLDR data), sorted for that language; the reference data's English name where the browser
 * has none.
 */
function useLocalisedCountries<C extends { iso_2: string; name: string }>(countries: C[] | null, lang: string): (C & { label: string })[] {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    } catch {
      names = null;
    }
    const label = (c: C) => {
      try {
        return names?.of(c.iso_2) || c.name;
      } catch {
        return c.name;
      }
    };
    const collator = new Intl.Collator(lang);
    return (countries ?? []).map((c) => ({ ...c, label: label(c) })).sort((a, b) => collator.compare(a.label, b.label));
  }, [countries, lang]);
}

const EMPTY_ADDRESS: Address = { line1: '', line2: '', city: '', state: '', postcode: '', country: '' };
// Not the email: it is the sign-in address, changed only through a code sent to the new one
// (EmailAddress); PUT /api/profile refuses a new address.
const PERSONAL = ['first_name', 'last_name', 'phone', 'birth_date'] as const;
type Personal = (typeof PERSONAL)[number];

type Draft = Record<Personal, string> & { address: Address };

function draftOf(p: Profile): Draft {
  return {
    first_name: p.first_name ?? '',
    last_name: p.last_name ?? '',
    phone: p.phone ?? '',
    birth_date: p.birth_date ?? '',
    address: { ...EMPTY_ADDRESS, ...(p.address ?? {}) },
  };
}

/** Only what the member changed (PUT /api/profile changes only the keys sent); null when nothing. */
export function changesOf(saved: Draft, draft: Draft): ProfileUpdate | null {
  const body: ProfileUpdate = {};
  for (const key of PERSONAL) if (draft[key].trim() !== saved[key]) body[key] = draft[key].trim();
  const address = Object.fromEntries(Object.entries(draft.address).map(([k, v]) => [k, v.trim()])) as unknown as Address;
  if ((Object.keys(EMPTY_ADDRESS) as (keyof Address)[]).some((k) => address[k] !== saved.address[k])) body.address = address;
  return Object.keys(body).length ? body : null;
}

/** The edits kept for the member in this tab (kept-draft.ts): what differed from the saved values. */
type Kept = Partial<Record<Personal, unknown>> & { address?: unknown };
const FORM = 'details';

/** The saved values with the kept edits over them; null when there are none (or nothing differs). */
function withKept(base: Draft, kept: Kept | null): Draft | null {
  if (!kept || typeof kept !== 'object') return null;
  const next: Draft = { ...base, address: { ...base.address } };
  for (const key of PERSONAL) {
    const value = kept[key];
    if (typeof value === 'string') next[key] = value;
  }
  if (kept.address && typeof kept.address === 'object') {
    for (const [k, v] of Object.entries(kept.address))
      if (k in EMPTY_ADDRESS && typeof v === 'string') next.address[k as keyof Address] = v;
  }
  return changesOf(base, next) ? next : null;
}

/** A country's name in the page's language (the code where the browser has none). */
function countryName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Field id of a server error key: `address.country` → `pf-address-country`. */
const fieldId = (key: string) => `pf-${key.replace(/\./g, '-')}`;

function AddressFields({
  address,
  onChange,
  errors,
  disabled,
}: {
  address: Address;
  onChange: (next: Address) => void;
  errors: FieldErrors;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { countries, loaded } = useCountries();
  const localised = useLocalisedCountries(countries, i18n.language);
  const set = (key: keyof Address) => (value: string) => onChange({ ...address, [key]: value });
  const country = findCountry(countries, address.country);
  const states = country?.states ?? [];
  const state = findState(country, address.state);
  const text = (key: keyof Address, autoComplete: string, extra: { className?: string } = {}) => (
    <TextField
      id={fieldId(`address.${key}`)}
      label={t(`details.address.${key}`)}
      error={errors[`address.${key}`]}
      value={address[key]}
      onChange={(e) => set(key)(e.target.value)}
      autoComplete={autoComplete}
      {...extra}
    />
  );

  const countryField =
    countries === null && loaded ? (
      // The list could not be had: the member can still type the country (iso code or name).
      text('country', 'country')
    ) : (
      <SelectField
        id={fieldId('address.country')}
        label={t('details.address.country')}
        error={errors['address.country']}
        value={country?.iso_2 ?? address.country}
        onChange={(e) => {
          const next = findCountry(countries, e.target.value);
          // A state of the previous country does not carry over.
          const keepState = next && findState(next, address.state) ? address.state : '';
          onChange({ ...address, country: e.target.value, state: next && next.states.length ? keepState : address.state });
        }}
        autoComplete="country"
        aria-busy={!loaded || undefined}
      >
        <option value="">{loaded ? t('details.address.chooseCountry') : t('details.address.loadingCountries')}</option>
        {!country && address.country && <option value={address.country}>{address.country}</option>}
        {localised.map((c) => (
          <option key={c.iso_2} value={c.iso_2}>
            {c.label}
          </option>
        ))}
      </SelectField>
    );

  const stateField =
    states.length > 0 ? (
      <SelectField
        id={fieldId('address.state')}
        label={t('details.address.state')}
        error={errors['address.state']}
        value={state?.iso ?? address.state}
        onChange={(e) => set('state')(e.target.value)}
        autoComplete="address-level1"
      >
        <option value="">{t('details.address.chooseState')}</option>
        {!state && address.state && <option value={address.state}>{address.state}</option>}
        {states.map((s) => (
          <option key={s.iso_2_country_state_code} value={s.iso}>
            {s.name}
          </option>
        ))}
      </SelectField>
    ) : (
      text('state', 'address-level1')
    );

  return (
    <fieldset className="fieldset" disabled={disabled}>
      <legend>{t('details.address.legend')}</legend>
      <div className="form-grid">
        {countryField}
        {text('line1', 'address-line1', { className: 'span-2' })}
        {text('line2', 'address-line2', { className: 'span-2' })}
        {text('city', 'address-level2')}
        {stateField}
        {text('postcode', 'postal-code')}
      </div>
    </fieldset>
  );
}

/**
 * My Details: the sign-in address (changed on its own, verified), then name, phone, birth date and
 * address, saved with PUT /api/profile. The address's dialog has a form of its own, so the details
 * form comes after it rather than around it. The phone may be written as it is dialled in the
 * member's country (the address's, else the profile's region, else the tenant's default): it is
 * checked with libphonenumber and sent in E.164. Leaving with unsaved edits asks first; edits not
 * saved when the session ended are kept in this tab and offered again to the same member.
 */
export function DetailsForm({ profile, readOnly }: { profile: Profile; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const { config } = useConfig();
  const { countries } = useCountries();
  // Kept edits belong to the signed-in member, and only to the form showing that member's profile.
  const { profile_id: signedIn } = useAuth();
  const profileId = !readOnly && signedIn && profile.id === signedIn ? signedIn : null;
  // Edits the member left unsaved in this tab (their session ended, say): the form starts from them.
  const [kept, setKept] = useState(() => (profileId ? withKept(draftOf(profile), readDraft<Kept>(FORM, profileId)) : null));
  const { saved, draft, setDraft, reset } = useDraft(
    draftOf(profile),
    (a, b) => changesOf(a, b) !== null,
    () => kept,
  );
  const { ref, errors, fromError, show, clear } = useServerErrors<HTMLFormElement>();
  const save = useSaveProfile();
  const [checking, setChecking] = useState(false);
  const region = phoneRegion(
    findCountry(countries, draft.address.country)?.iso_2,
    profile.region?.handle,
    config?.general?.defaultCountry ?? undefined,
  );
  const country = countryName(region, i18n.language);
  const changes = readOnly ? null : changesOf(saved, draft);
  const unsaved = JSON.stringify(changes);

  // Kept in this tab while there are unsaved edits; gone once there are none (saved, undone).
  useEffect(() => {
    if (!profileId) return;
    if (unsaved === 'null') dropDraft(FORM, profileId);
    else keepDraft(FORM, profileId, JSON.parse(unsaved));
  }, [unsaved, profileId]);

  const forget = () => {
    setKept(null);
    if (profileId) dropDraft(FORM, profileId);
  };
  const discard = () => {
    reset(draftOf(profile));
    forget();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending || checking || readOnly) return;
    const body = changesOf(saved, draft);
    if (!body) {
      addToast({ type: 'info', text: t('form.nothingChanged') });
      return;
    }
    if (body.phone) {
      setChecking(true);
      // Without the library (its chunk not reachable), the number goes as typed: the server reads it the same way.
      const phone = await checkPhone(body.phone, region)
        .catch(() => null)
        .finally(() => setChecking(false));
      if (phone && !phone.ok) {
        show({ phone: phone.international ? t('details.phoneInvalid') : t('details.phoneInvalidIn', { country }) });
        addToast({ type: 'error', text: t('form.checkFields'), timeout: 5000 });
        return;
      }
      if (phone) body.phone = phone.e164;
    }
    clear();
    save.mutate(body, {
      onSuccess: (next) => {
        // What the server kept (e.g. the country as its iso code) becomes the form's new starting point.
        reset(draftOf(next));
        setKept(null);
        toastSaved(t);
      },
      // The member's input stays as typed; only the messages change.
      onError: (err) => toastWriteError(err, t, fromError(err)),
    });
  };

  const personal = (key: Personal, type: string, autoComplete: string, extra: Record<string, unknown> = {}) => (
    <TextField
      id={fieldId(key)}
      label={t(`details.${key}`)}
      error={errors[key]}
      type={type}
      value={draft[key]}
      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      autoComplete={autoComplete}
      {...extra}
    />
  );

  return (
    <section className="card" aria-labelledby="details-title">
      <h2 id="details-title">{t('details.title')}</h2>
      <EmailAddress email={profile.email ?? ''} readOnly={readOnly} />
      <UnsavedChangesGuard dirty={changes !== null} onLeave={forget} />
      {kept && changes && (
        <div className="card notice" role="status">
          <p>{t('unsaved.kept')}</p>
          <button type="button" className="btn btn-secondary" onClick={discard}>
            {t('unsaved.discard')}
          </button>
        </div>
      )}
      <form ref={ref} onSubmit={(e) => void submit(e)} noValidate aria-labelledby="details-title">
        <fieldset className="fieldset" disabled={readOnly}>
          <div className="form-grid">
            {personal('first_name', 'text', 'given-name')}
            {personal('last_name', 'text', 'family-name')}
            {personal('phone', 'tel', 'tel', {
              dir: 'ltr',
              hint: t('details.phoneHint', { country }),
              onFocus: () => void loadPhoneLib(),
            })}
            {personal('birth_date', 'date', 'bday')}
          </div>
        </fieldset>
        <AddressFields
          address={draft.address}
          onChange={(address) => setDraft({ ...draft, address })}
          errors={errors}
          disabled={readOnly}
        />
        {!readOnly && <SubmitButton busy={save.isPending || checking} label={t('form.save')} busyLabel={t('form.saving')} />}
      </form>
    </section>
  );
}
