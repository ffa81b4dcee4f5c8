import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, addToast, isHttpError, useAuth, useConfig, timeZone, type Claim, type ClaimRequest } from '@portal/runtime';
import { SelectField, TextField } from '@portal/kit/fields';
import { Icon } from '../../../components/Icon';
import { daysBefore, formatNumber, todayIn } from '../../../lib/dates';
import { claimWindowDays, normaliseAmount } from '../api/claims';
import { useFileClaim, useLocations } from '../hooks/use-claims';
import { WriteButton } from '@portal/kit/offline';

type Draft = ClaimRequest;
const EMPTY: Draft = { store: '', date: '', receipt_number: '', amount: '' };
/** The claim's fields in the order of the form (the first invalid one gets the focus). */
export const CLAIM_FIELDS = ['store', 'date', 'receipt_number', 'amount'] as const;
type FieldName = (typeof CLAIM_FIELDS)[number];
const fieldId = (field: FieldName) => `claim-${field.replace('_', '-')}`;

/** The answer to a filed claim: credited with its points, or pending. Announced (it is in a live region). */
function ClaimResult({ claim }: { claim: Claim }) {
  const { t, i18n } = useTranslation();
  if (claim.status === 'credited') {
    return (
      <div className="claim-result claim-result--credited">
        <p className="claim-result__title">
          <Icon name="check" />
          <strong>{t('claim.credited', { points: formatNumber(claim.points, i18n.language) })}</strong>
        </p>
        <p>
          {t('claim.creditedText')} <Link href="/transactions">{t('claim.viewOrders')}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="claim-result claim-result--pending">
      <p className="claim-result__title">
        <Icon name="clock" />
        <strong>{t('claim.pending')}</strong>
      </p>
      <p>{t('claim.pendingText')}</p>
    </div>
  );
}

/**
 * Claim a purchase that is not in My Orders: store, date (in the tenant's zone, at most today),
 * receipt number and amount, sent with POST /api/profile/claims. Refused fields (422, or 409 for a
 * receipt already the member's own) are told under each field and announced; the first gets the
 * focus and what was typed stays. A member over their claim quotas (429, or 422 naming no field)
 * is told so in a toast.
 */
export function ClaimForm() {
  const { t, i18n } = useTranslation();
  const { impersonating } = useAuth();
  const { config } = useConfig();
  const today = todayIn(timeZone(config));
  const days = claimWindowDays(config);
  const locations = useLocations();
  const file = useFileClaim();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [refusals, setRefusals] = useState(0);
  const [result, setResult] = useState<Claim | null>(null);

  useEffect(() => {
    if (refusals) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  /** The refused fields of `err` in the page's language; null when it names none of the form's. */
  function fieldErrors(err: unknown): Partial<Record<FieldName, string>> | null {
    if (!isHttpError(err) || (err.status !== 422 && err.status !== 409)) return null;
    const next: Partial<Record<FieldName, string>> = {};
    for (const field of CLAIM_FIELDS) {
      const message = err.errors?.[field];
      if (typeof message !== 'string') continue;
      const key = field === 'receipt_number' && err.status === 409 ? 'claimed' : field;
      // The server's sentences are English: other languages get the catalog's message for the field.
      next[field] = i18n.language === 'en' && message ? message : t(`claim.errors.${key}`, { days });
    }
    return Object.keys(next).length ? next : null;
  }

  const set = (field: FieldName) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file.isPending || impersonating) return;
    setResult(null);
    setErrors({});
    const body: ClaimRequest = {
      store: draft.store,
      date: draft.date,
      receipt_number: draft.receipt_number.trim(),
      amount: normaliseAmount(draft.amount),
    };
    file.mutate(body, {
      onSuccess: ({ data }) => {
        setResult(data);
        setDraft(EMPTY);
      },
      onError: (err) => {
        const fields = fieldErrors(err);
        if (fields) {
          setErrors(fields);
          setRefusals((n) => n + 1);
          addToast({ type: 'error', text: t('claim.checkFields'), timeout: 5000 });
        } else if (isHttpError(err) && (err.status === 429 || err.status === 422)) {
          // Too many claims waiting, or too many today: the server's sentence in English.
          addToast({ type: 'error', text: i18n.language === 'en' && err.message ? err.message : t('claim.tooMany'), timeout: 5000 });
        } else if (!(isHttpError(err) && err.status === 403)) {
          // A 403 (staff viewing the account) is already told by the runtime.
          addToast({ type: 'error', text: t('claim.failed'), timeout: 5000 });
        }
      },
    });
  };

  const stores = locations.data?.locations ?? [];
  return (
    <form ref={formRef} className="card claim-form" onSubmit={submit} noValidate aria-labelledby="claim-form-title">
      <h2 id="claim-form-title">{t('claim.formTitle')}</h2>
      {impersonating && <p className="notice card">{t('claim.readOnly')}</p>}
      <fieldset className="fieldset" disabled={impersonating}>
        <div className="form-grid">
          <SelectField
            id={fieldId('store')}
            label={t('claim.store')}
            error={errors.store}
            value={draft.store}
            onChange={(e) => set('store')(e.target.value)}
            aria-busy={locations.isPending || undefined}
          >
            <option value="">{locations.isPending ? t('claim.loadingStores') : t('claim.chooseStore')}</option>
            {stores.map((s) => (
              <option key={s.handle} value={s.handle}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <TextField
            id={fieldId('date')}
            label={t('claim.date')}
            hint={t('claim.dateHint', { days })}
            error={errors.date}
            type="date"
            max={today || undefined}
            min={today ? daysBefore(today, days) : undefined}
            value={draft.date}
            onChange={(e) => set('date')(e.target.value)}
          />
          <TextField
            id={fieldId('receipt_number')}
            label={t('claim.receipt')}
            hint={t('claim.receiptHint')}
            error={errors.receipt_number}
            // Receipt numbers read left to right, also on an Arabic page.
            dir="ltr"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            value={draft.receipt_number}
            onChange={(e) => set('receipt_number')(e.target.value)}
          />
          <TextField
            id={fieldId('amount')}
            label={t('claim.amount')}
            hint={t('claim.amountHint')}
            error={errors.amount}
            dir="ltr"
            inputMode="decimal"
            autoComplete="off"
            value={draft.amount}
            onChange={(e) => set('amount')(e.target.value)}
          />
        </div>
        {locations.isError && (
          <p className="field-hint">
            {t('claim.storesFailed')}{' '}
            <button type="button" className="btn-link" onClick={() => void locations.refetch()}>
              {t('claim.retryStores')}
            </button>
          </p>
        )}
        {!impersonating && (
          <WriteButton type="submit" className="btn" aria-busy={file.isPending || undefined}>
            {file.isPending ? t('claim.submitting') : t('claim.submit')}
          </WriteButton>
        )}
      </fieldset>
      <div role="status" className="claim-result-region">
        {result && <ClaimResult claim={result} />}
      </div>
    </form>
  );
}
