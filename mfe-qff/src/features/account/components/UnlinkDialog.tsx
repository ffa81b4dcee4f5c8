import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { FieldError, isHttpError } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { SelectField } from '@portal/kit/fields';
import { Problem } from '../../../components/Problem';
import { fieldErrors } from '../../../lib/errors';
import { COMMENT_MAX, UNLINK_REASONS } from '../api/account';
import { useUnlinkQff } from '../hooks/use-account';
import type { UnlinkReason } from '../api/types';
import { WriteButton } from '@portal/kit/offline';

type Errors = Partial<Record<'reason' | 'comment', string>>;

/**
 * Asks before unlinking: why (the reason is kept), an optional comment, then DELETE /api/qff/link.
 * The focus starts on Cancel; the reason and comment errors are tied to their fields; anything
 * else (the partner down, nothing linked any more) is told above the buttons.
 */
export function UnlinkDialog({ number, opener, onClose }: { number: string; opener: HTMLElement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const client = useQueryClient();
  const unlink = useUnlinkQff();
  const [reason, setReason] = useState<UnlinkReason | ''>('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<unknown>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const commentId = `${id}-comment`;

  const focusInvalid = () => queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (unlink.isPending) return;
    setProblem(null);
    if (!reason) {
      setErrors({ reason: t('unlink.reasonMissing') });
      focusInvalid();
      return;
    }
    setErrors({});
    const text = comment.trim();
    unlink.mutate(text ? { reason, comment: text } : { reason }, {
      onSuccess: onClose,
      onError: (err) => {
        const fields = fieldErrors(err, ['reason', 'comment'] as const);
        if (Object.keys(fields).length) {
          setErrors(fields);
          focusInvalid();
          return;
        }
        setProblem(err);
        // Not linked any more (unlinked elsewhere): the page catches up.
        if (isHttpError(err) && err.status === 409) void client.invalidateQueries({ queryKey: ['qff'] });
      },
    });
  };

  return (
    <Dialog labelledBy={`${id}-title`} describedBy={`${id}-text`} onClose={onClose} returnFocus={opener} className="qff-dialog">
      <form ref={formRef} onSubmit={submit} noValidate>
        <h2 id={`${id}-title`}>{t('unlink.title')}</h2>
        <p id={`${id}-text`}>{t('unlink.text', { number })}</p>
        <SelectField
          id={`${id}-reason`}
          label={t('unlink.reason')}
          error={errors.reason}
          value={reason}
          onChange={(e) => setReason(e.target.value as UnlinkReason | '')}
          required
        >
          <option value="">{t('unlink.choose')}</option>
          {UNLINK_REASONS.map((r) => (
            <option key={r} value={r}>
              {t(`unlink.reasons.${r}`)}
            </option>
          ))}
        </SelectField>
        <div className="field">
          <label htmlFor={commentId}>{t('unlink.comment')}</label>
          <textarea
            id={commentId}
            dir="auto"
            rows={3}
            maxLength={COMMENT_MAX}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            aria-invalid={errors.comment ? true : undefined}
            aria-describedby={`${commentId}-hint ${commentId}-error`}
          />
          <span id={`${commentId}-hint`} className="field-hint">
            {t('unlink.commentHint', { max: COMMENT_MAX })}
          </span>
          <FieldError id={`${commentId}-error`} message={errors.comment} />
        </div>
        {problem !== null && <Problem error={problem} />}
        <div className="dialog__actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} data-autofocus>
            {t('unlink.cancel')}
          </button>
          <WriteButton type="submit" className="btn" aria-busy={unlink.isPending || undefined}>
            {unlink.isPending ? t('unlink.unlinking') : t('unlink.confirm')}
          </WriteButton>
        </div>
      </form>
    </Dialog>
  );
}
