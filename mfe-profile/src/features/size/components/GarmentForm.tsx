import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, addToast } from '@portal/runtime';
import { SelectField, SubmitButton } from '@portal/kit/fields';
import { toastSaved, toastWriteError, useDraft, useServerErrors } from '../../../lib/form';
import type { GarmentChart } from '../../../lib/settings';
import { conversions, convertSize, defaultFit, systemLabel, type SizeValue } from '../lib/sizes';
import { useSaveSize } from '../hooks/use-save-size';

const same = (a: SizeValue, b: SizeValue) => a.system === b.system && a.size === b.size && a.fit === b.fit;

/** One garment: size system, size and fit, saved as `size:<garment>`; shown back (and converted when the chart allows). */
export function GarmentForm({
  garment,
  chart,
  value,
  readOnly,
}: {
  garment: string;
  chart: GarmentChart;
  value: SizeValue | null;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const systems = Object.keys(chart.systems);
  const start: SizeValue = value ?? { system: systems.includes('AU') ? 'AU' : systems[0], size: '', fit: defaultFit(chart) };
  const { saved, draft, setDraft, reset } = useDraft(start, (a, b) => !same(a, b));
  const { ref, errors, fromError, clear } = useServerErrors<HTMLFormElement>();
  const save = useSaveSize(garment);
  const name = t(`size.garments.${garment}`, { defaultValue: garment });
  const fitName = (fit: string) => t(`size.fits.${fit}`, { defaultValue: fit });
  const id = (part: string) => `size-${garment}-${part}`;
  const shown = value && `${systemLabel(value.system)} ${value.size}`;
  const converted = value && chart.convertible ? conversions(chart, value) : [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending || readOnly) return;
    if (value ? same(saved, draft) : !draft.size) {
      addToast({ type: 'info', text: t('form.nothingChanged') });
      return;
    }
    clear();
    save.mutate(draft.size ? draft : null, {
      onSuccess: () => {
        reset(draft);
        toastSaved(t, draft.size ? 'form.saved' : 'size.removed');
      },
      onError: (err) =>
        toastWriteError(
          err,
          t,
          fromError(err, (field) => (field === 'value' ? 'size' : field)),
        ),
    });
  };

  return (
    <form ref={ref} className="card" onSubmit={submit} noValidate aria-labelledby={id('title')}>
      <h2 id={id('title')}>{name}</h2>
      <p aria-live="polite">
        {value && shown ? (
          <>
            {t('size.saved')}{' '}
            {value.fit ? (
              <BdiTrans k="size.savedWithFit" values={{ size: shown }} options={{ fit: fitName(value.fit) }} />
            ) : (
              <Bdi>{shown}</Bdi>
            )}
          </>
        ) : (
          <span className="muted">{t('size.notSaved')}</span>
        )}
      </p>
      {converted.length > 0 && (
        <p className="muted">
          {t('size.converted')}{' '}
          {converted.map((c, i) => (
            <span key={c.system}>
              {i > 0 && ' · '}
              <Bdi>{`${systemLabel(c.system)} ${c.size}`}</Bdi>
            </span>
          ))}
        </p>
      )}
      <fieldset className="fieldset" disabled={readOnly}>
        <div className="form-grid form-grid--3">
          <SelectField
            id={id('system')}
            label={t('size.system')}
            value={draft.system}
            onChange={(e) => {
              const system = e.target.value;
              // The chosen size carries over to the new system (same index in the chart).
              setDraft({ ...draft, system, size: draft.size ? convertSize(chart, draft.system, draft.size, system) : '' });
            }}
          >
            {systems.map((s) => (
              <option key={s} value={s}>
                {systemLabel(s)}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={id('size')}
            label={t('size.size')}
            error={errors.size}
            value={draft.size}
            onChange={(e) => setDraft({ ...draft, size: e.target.value })}
          >
            <option value="">{t('size.noSize')}</option>
            {(chart.systems[draft.system] ?? []).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </SelectField>
          {chart.fits.length > 0 && (
            <SelectField
              id={id('fit')}
              label={t('size.fit')}
              error={errors.fit}
              value={draft.fit}
              onChange={(e) => setDraft({ ...draft, fit: e.target.value })}
            >
              {chart.fits.map((f) => (
                <option key={f} value={f}>
                  {fitName(f)}
                </option>
              ))}
            </SelectField>
          )}
        </div>
      </fieldset>
      {!readOnly && <SubmitButton busy={save.isPending} label={t('size.save', { garment: name })} busyLabel={t('form.saving')} />}
    </form>
  );
}
