import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, RemoteParcel, addToast, useConfig } from '@portal/runtime';
import { SubmitButton, TextField } from '@portal/kit/fields';
import { toastSaved, toastWriteError, useDraft, useServerErrors } from '../../../lib/form';
import { profileSettings } from '../../../lib/settings';
import type { Identity, Profile } from '@portal/runtime';
import { useSaveProfile } from '../hooks/use-save-profile';
import { WriteButton } from '@portal/kit/offline';

// The frequent-flyer number is linked through the airline (its number and name checked there),
// by mfe-qff's identity view mounted here; never typed in as a plain identifier.
const QFF_HANDLE = 'qff_number';
const QFF_REMOTE = 'mfe_qff';
const QFF_PROPS = { view: 'identity' };

const linkedOf = (p: Profile, handles: string[]) =>
  Object.fromEntries(handles.map((h) => [h, p.identities?.find((i) => i.handle === h)?.identifier ?? '']));

/**
 * Linked identities: every identity is listed; the tenant's own handles
 * (config components.profile.identities) can be added, changed or removed with PUT /api/profile,
 * except the frequent-flyer number, which mfe-qff links and unlinks.
 */
export function Identities({ profile, readOnly }: { profile: Profile; readOnly: boolean }) {
  const { t } = useTranslation();
  const { config } = useConfig();
  const tenantHandles = profileSettings(config).identities;
  const handles = tenantHandles.filter((h) => h !== QFF_HANDLE);
  // Offered where the tenant has the Qantas program (config components.qantas), and shown wherever
  // an account is linked.
  const qff =
    !!config?.components?.qantas || tenantHandles.includes(QFF_HANDLE) || !!profile.identities?.some((i) => i.handle === QFF_HANDLE);
  const changed = (saved: Record<string, string>, draft: Record<string, string>) =>
    handles.filter((h) => (draft[h] ?? '').trim() !== (saved[h] ?? ''));
  const { saved: linked, draft, setDraft, reset } = useDraft(linkedOf(profile, handles), (a, b) => changed(a, b).length > 0);
  const [removing, setRemoving] = useState<string | null>(null);
  const { ref, errors, fromError, clear } = useServerErrors<HTMLFormElement>();
  const save = useSaveProfile();
  const others = (profile.identities ?? []).filter((i) => !handles.includes(i.handle) && i.handle !== QFF_HANDLE);
  const label = (handle: string) => t(`profile.identity.${handle}`, { defaultValue: handle });

  const send = (identities: Identity[], done: string) => {
    clear();
    save.mutate(
      { identities },
      {
        onSuccess: (next) => {
          reset(linkedOf(next, handles));
          toastSaved(t, done);
        },
        onError: (err) => {
          // identities.<i>.identifier → the field of the handle sent at index i.
          const shown = fromError(err, (field) => {
            const m = /^identities\.(\d+)\./.exec(field);
            const sent = m ? identities[Number(m[1])] : undefined;
            return sent ? `identity:${sent.handle}` : field;
          });
          toastWriteError(err, t, shown);
        },
        onSettled: () => setRemoving(null),
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending || readOnly) return;
    const edits = changed(linked, draft).map((handle) => ({ handle, identifier: (draft[handle] ?? '').trim() }));
    if (!edits.length) {
      addToast({ type: 'info', text: t('form.nothingChanged') });
      return;
    }
    send(edits, 'form.saved');
  };

  const remove = (handle: string) => {
    if (save.isPending || readOnly) return;
    setRemoving(handle);
    send([{ handle, identifier: '' }], 'identities.removed');
  };

  return (
    <section className="card" aria-labelledby="identities-title">
      <h2 id="identities-title">{t('profile.identities')}</h2>
      {others.length > 0 && (
        <dl className="dl">
          {others.map((id) => (
            <div key={`${id.handle}:${id.identifier}`} className="contents">
              <dt>{label(id.handle)}</dt>
              <dd>
                <Bdi>{id.identifier}</Bdi>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {qff && <RemoteParcel remote={QFF_REMOTE} props={QFF_PROPS} label={label(QFF_HANDLE)} className="identities-qff" />}
      {handles.length === 0 ? (
        others.length === 0 && !qff && <p className="muted">{t('profile.noIdentities')}</p>
      ) : (
        <form ref={ref} onSubmit={submit} noValidate aria-label={t('identities.formLabel')} className="identities-form">
          <p className="muted">{t('identities.intro')}</p>
          <fieldset className="fieldset" disabled={readOnly}>
            {handles.map((handle) => (
              <div key={handle} className="identity-row">
                <TextField
                  id={`pf-identity-${handle}`}
                  label={label(handle)}
                  error={errors[`identity:${handle}`]}
                  value={draft[handle] ?? ''}
                  onChange={(e) => setDraft({ ...draft, [handle]: e.target.value })}
                  dir="ltr"
                  autoComplete="off"
                />
                {linked[handle] && !readOnly && (
                  <WriteButton
                    className="btn btn-secondary"
                    onClick={() => remove(handle)}
                    aria-busy={removing === handle || undefined}
                    reasonShown={false}
                  >
                    {removing === handle ? t('identities.removing') : t('identities.remove')}
                    <span className="visually-hidden"> ({label(handle)})</span>
                  </WriteButton>
                )}
              </div>
            ))}
          </fieldset>
          {!readOnly && <SubmitButton busy={save.isPending && !removing} label={t('identities.save')} busyLabel={t('form.saving')} />}
        </form>
      )}
    </section>
  );
}
