import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WriteButton } from '@portal/kit/offline';
import { ChangeEmailDialog } from './ChangeEmailDialog';

/**
 * The sign-in address: shown, not typed over (PUT /api/profile refuses a new one). "Change email"
 * opens the verified change; staff viewing the account are not offered it.
 */
export function EmailAddress({ email, readOnly }: { email: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const [changing, setChanging] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  return (
    <div className="email-address" role="group" aria-labelledby="pf-email-label">
      <span id="pf-email-label" className="email-address__label">
        {t('details.email')}
      </span>
      <div className="email-address__row">
        <bdi id="pf-email" className="email-address__value" dir="ltr">
          {email}
        </bdi>
        {!readOnly && (
          <WriteButton
            className="btn btn-secondary btn-small"
            aria-describedby="pf-email"
            onClick={(e) => {
              opener.current = e.currentTarget;
              setChanging(true);
            }}
          >
            {t('emailChange.change')}
          </WriteButton>
        )}
      </div>
      <span className="field-hint">{t('emailChange.hint')}</span>
      {changing && <ChangeEmailDialog current={email} opener={opener.current} onClose={() => setChanging(false)} />}
    </div>
  );
}
