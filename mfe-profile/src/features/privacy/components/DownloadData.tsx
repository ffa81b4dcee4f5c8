import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, isHttpError, track } from '@portal/runtime';
import { getDataFile, saveFile } from '../api/privacy';
import { Icon } from './Icon';

/** Today as YYYY-MM-DD (the name the file gets should the server not give one). */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Download my data: GET /api/privacy/export, saved under the server's file name. The button keeps
 * the focus while busy (aria-busy, repeat presses ignored) and the status line says what happened.
 */
export function DownloadData() {
  const { t } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const running = useRef(false);

  const download = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setSaved(null);
    try {
      const file = await getDataFile(`my-data-${today()}.json`);
      saveFile(file);
      setSaved(file.filename);
      track('my_details_download_data');
    } catch (err) {
      // A 403 (staff viewing the account) is already told by the runtime; a 401 ends the session.
      if (!(isHttpError(err) && (err.status === 403 || err.status === 401))) {
        addToast({ type: 'error', text: t('privacy.download.failed'), timeout: 5000 });
      }
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  return (
    <section className="card privacy-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('privacy.download.title')}</h2>
      <p>{t('privacy.download.intro')}</p>
      <button type="button" className="btn btn-secondary" aria-busy={busy || undefined} onClick={() => void download()}>
        <Icon name="download" />
        {busy ? t('privacy.download.busy') : t('privacy.download.button')}
      </button>
      <p role="status" className="privacy-status">
        {busy ? t('privacy.download.busy') : saved ? t('privacy.download.done', { file: saved }) : ''}
      </p>
    </section>
  );
}
