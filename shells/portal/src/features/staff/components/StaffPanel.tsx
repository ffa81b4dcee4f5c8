import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldError,
  Bdi,
  http,
  impersonate,
  isHttpError,
  navigate,
  screenView,
  useAuth,
  type MemberSearchResult,
  type MemberSearchType,
  type SearchByIdRequest,
  type SearchByIdResponse,
} from '@portal/runtime';

/**
 * What a staff user can search by: the member number, name, email and phone match any part (the
 * number's and phone's digits, spaces ignored), the frequent-flyer number and id exactly. One page
 * of members at most comes back.
 */
type SearchType = MemberSearchType | 'member_number' | 'name' | 'phone';
const TYPES: SearchType[] = ['member_number', 'name', 'email', 'phone', 'qff_number', 'id'];
const NUMERIC: Partial<Record<SearchType, 'numeric' | 'tel'>> = { member_number: 'numeric', qff_number: 'numeric', phone: 'tel' };

function Result({ member, busy, onView }: { member: MemberSearchResult; busy: boolean; onView: (reason: string) => void }) {
  const { t } = useTranslation('shell');
  const [reason, setReason] = useState('');
  const id = useId();
  const name = `${member.first_name ?? ''} ${member.last_name ?? ''}`.trim();
  return (
    <li className="staff-result">
      <div className="row">
        <span>
          <strong id={`${id}-name`}>
            <Bdi>{name || member.id}</Bdi>
          </strong>
          <br />
          <span className="muted">
            <Bdi>{member.email}</Bdi>
          </span>
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t('staff.reason')}</label>
        <input id={`${id}-reason`} type="text" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
      </div>
      <button type="button" className="btn" disabled={busy} aria-describedby={`${id}-name`} onClick={() => onView(reason)}>
        {t('staff.view')}
      </button>
    </li>
  );
}

/** /home for a staff user: find a member and view the portal as that member. */
export function StaffPanel() {
  const { t } = useTranslation('shell');
  const auth = useAuth();
  const [type, setType] = useState<SearchType>('email');
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<MemberSearchResult[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => screenView('Home'), []);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const id = query.trim();
    if (!id) {
      setError(t('staff.required'));
      return;
    }
    setSearching(true);
    try {
      const body: SearchByIdRequest = { type, id };
      const res = await http<SearchByIdResponse>('/api/auth/searchById', { method: 'POST', body });
      setResults(res?.data ?? []);
    } catch (err) {
      setResults(null);
      setError(isHttpError(err) ? err.message : t('error.unknown', { ns: 'runtime' }));
    } finally {
      setSearching(false);
    }
  };

  const view = async (member: MemberSearchResult, reason: string) => {
    try {
      await impersonate(member.id, reason);
      navigate('/home');
    } catch {
      /* the runtime shows the error toast and restores the staff session */
    }
  };

  return (
    <section className="page" aria-labelledby="staff-title">
      <h1 id="staff-title">{t('staff.title')}</h1>
      <p className="lead">{t('staff.intro')}</p>
      <form className="card" onSubmit={search} noValidate role="search" aria-label={t('staff.title')}>
        <div className="field">
          <label htmlFor="staff-type">{t('staff.type')}</label>
          <select id="staff-type" value={type} onChange={(e) => setType(e.target.value as SearchType)}>
            {TYPES.map((value) => (
              <option key={value} value={value}>
                {t(`staff.types.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="staff-query">{t('staff.query')}</label>
          <input
            id="staff-query"
            type={type === 'email' ? 'email' : 'text'}
            inputMode={NUMERIC[type]}
            dir="ltr"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby="staff-error"
          />
          <FieldError id="staff-error" message={error} />
        </div>
        <button type="submit" className="btn" disabled={searching}>
          {searching ? t('staff.searching') : t('staff.search')}
        </button>
      </form>
      {results && (
        <section className="card" aria-labelledby="staff-results-title" aria-live="polite">
          <h2 id="staff-results-title">{t('staff.results')}</h2>
          {results.length === 0 ? (
            <p className="muted">{t('staff.none')}</p>
          ) : (
            <ul className="list">
              {results.map((member) => (
                <Result key={member.id} member={member} busy={auth.loading} onView={(reason) => void view(member, reason)} />
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}
