import { addToast, exchangeLinkToken, i18n, navigate } from '@portal/runtime';
import { safeRedirect } from './mfe/routes';

/**
 * Handles `?token=` from the e-mailed link: strips it from the address bar,
 * exchanges it for a session, then goes to `redirect` (default /home).
 */
export async function handleLinkToken(loc: Location = window.location): Promise<'none' | 'ok' | 'failed'> {
  const params = new URLSearchParams(loc.search);
  const token = params.get('token');
  if (!token) return 'none';
  const redirect = safeRedirect(params.get('redirect'));
  params.delete('token');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
  try {
    await exchangeLinkToken(token);
    navigate(redirect, { replace: true });
    return 'ok';
  } catch {
    addToast({ type: 'error', text: i18n.t('login.linkFailed', { ns: 'shell' }), timeout: 6000 });
    return 'failed';
  }
}
