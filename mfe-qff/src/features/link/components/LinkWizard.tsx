import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BdiTrans } from '@portal/runtime';
import { SubmitButton, TextField } from '@portal/kit/fields';
import { Problem } from '../../../components/Problem';
import { fieldErrors } from '../../../lib/errors';
import { useLinkQff, useValidateQff } from '../hooks/use-link';
import type { QffLinkRequest, QffMember } from '../api/types';
import { WriteButton } from '@portal/kit/offline';

const FIELDS = ['qff_number', 'last_name'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

/**
 * Linking in two steps. 1: the number (and, if it differs from the profile's, the last name on the
 * airline account): the airline is asked whose it is (POST /api/qff/validate, nothing stored).
 * 2: "Is this you? Dana Demo, 1900123456" — yes links it (POST /api/qff/link), no goes back.
 * The partner's refusals are shown as the server words them, under the field they are about;
 * anything else (the partner down, another account already linked) above the buttons with a retry.
 */
export function LinkWizard({ headingLevel = 3 }: { headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 4 ? 'h4' : 'h3';
  const { t } = useTranslation();
  const id = useId();
  const numberId = `${id}-number`;
  const lastNameId = `${id}-last-name`;
  const [number, setNumber] = useState('');
  const [lastName, setLastName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<{ error: unknown; retry: () => void } | null>(null);
  const [member, setMember] = useState<QffMember | null>(null);
  const validate = useValidateQff();
  const link = useLinkQff();
  const form = useRef<HTMLFormElement>(null);
  const confirmTitle = useRef<HTMLHeadingElement>(null);
  // Where the focus goes after the next render: the step's title, or the first field in error.
  const [focus, setFocus] = useState<'confirm' | 'field' | null>(null);

  useEffect(() => {
    if (focus === 'confirm') confirmTitle.current?.focus();
    if (focus === 'field') {
      const first = form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]') ?? form.current?.querySelector('input');
      first?.focus();
    }
    if (focus) setFocus(null);
  }, [focus]);

  const request = (qffNumber: string): QffLinkRequest => {
    const last = lastName.trim();
    return last ? { qff_number: qffNumber, last_name: last } : { qff_number: qffNumber };
  };

  /** A refusal about a field goes back to step 1, under that field; anything else is told here. */
  const refused = (err: unknown, retry: () => void) => {
    const fields = fieldErrors(err, FIELDS);
    if (Object.keys(fields).length) {
      setMember(null);
      setErrors(fields);
      setFocus('field');
    } else {
      setProblem({ error: err, retry });
    }
  };

  const check = (e?: FormEvent) => {
    e?.preventDefault();
    if (validate.isPending) return;
    setProblem(null);
    const qffNumber = number.replace(/[\s-]+/g, '');
    if (!qffNumber) {
      setErrors({ qff_number: t('link.numberMissing') });
      setFocus('field');
      return;
    }
    setErrors({});
    validate.mutate(request(qffNumber), {
      onSuccess: ({ data }) => {
        setMember(data);
        setFocus('confirm');
      },
      onError: (err) => refused(err, () => check()),
    });
  };

  const confirm = () => {
    if (!member || link.isPending) return;
    setProblem(null);
    link.mutate(request(member.qff_number), { onError: (err) => refused(err, confirm) });
  };

  const back = () => {
    setMember(null);
    setProblem(null);
    setFocus('field');
  };

  if (member) {
    const name = [member.first_name, member.last_name].filter(Boolean).join(' ');
    return (
      <div className="qff-link" role="group" aria-labelledby={`${id}-confirm`}>
        <p className="qff-step muted">{t('link.step', { step: 2, steps: 2 })}</p>
        <Heading id={`${id}-confirm`} ref={confirmTitle} tabIndex={-1}>
          {t('link.isThisYou')}
        </Heading>
        <p className="qff-link__who">
          <strong>
            <BdiTrans k="link.who" values={{ name, number: member.qff_number }} />
          </strong>
        </p>
        {problem && <Problem error={problem.error} onRetry={problem.retry} />}
        <div className="qff-actions">
          <WriteButton className="btn" onClick={confirm} aria-busy={link.isPending || undefined}>
            {link.isPending ? t('link.linking') : t('link.confirm')}
          </WriteButton>
          <button type="button" className="btn btn-secondary" onClick={back}>
            {t('link.notMe')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form ref={form} className="qff-link" onSubmit={check} noValidate aria-label={t('link.formLabel')}>
      <p className="qff-step muted">{t('link.step', { step: 1, steps: 2 })}</p>
      <p>{t('link.intro')}</p>
      <TextField
        id={numberId}
        label={t('link.number')}
        hint={t('link.numberHint')}
        error={errors.qff_number}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        inputMode="numeric"
        autoComplete="off"
        dir="ltr"
        maxLength={20}
      />
      <TextField
        id={lastNameId}
        label={t('link.lastName')}
        hint={t('link.lastNameHint')}
        error={errors.last_name}
        value={lastName}
        onChange={(e) => setLastName(e.target.value)}
        autoComplete="family-name"
      />
      {problem && <Problem error={problem.error} onRetry={problem.retry} />}
      <SubmitButton busy={validate.isPending} label={t('link.next')} busyLabel={t('link.checking')} />
    </form>
  );
}
