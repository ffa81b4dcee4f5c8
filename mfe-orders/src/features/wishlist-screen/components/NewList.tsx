import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, useOnline } from '@portal/runtime';
import { WriteButton } from '@portal/kit/offline';
import { useCreateList } from '../hooks/use-list-writes';

/** "New list": a named, empty list in the member's wish list connection, to move items to. */
export function NewList({ connectionId }: { connectionId: string }) {
  const { t } = useTranslation();
  const online = useOnline();
  const create = useCreateList();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('wishlistScreen.nameRequired'));
      document.getElementById(inputId)?.focus();
      return;
    }
    setError(null);
    create.mutate(
      { connectionId, name: trimmed },
      {
        onSuccess: () => {
          setName('');
          addToast({ type: 'success', text: t('wishlistScreen.created', { list: trimmed }) });
        },
        onError: () => addToast({ type: 'error', text: t('wishlistScreen.errors.create'), timeout: 5000 }),
      },
    );
  };

  return (
    <form className="card wishlist-new" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId}>{t('wishlistScreen.newList')}</label>
      <div className="wishlist-new__row">
        <input
          id={inputId}
          value={name}
          maxLength={80}
          disabled={!online}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <WriteButton type="submit" className="btn btn-secondary btn-small" disabled={create.isPending}>
          {t('wishlistScreen.create')}
        </WriteButton>
      </div>
      {error && (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
