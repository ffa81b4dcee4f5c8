// Version skew between the shell and a tab. The shell provides the shared runtime
// (@portal/runtime, a module-federation singleton) whose API has a version, RUNTIME_API_VERSION;
// each tab declares the range it needs: its package.json dependency on @portal/runtime, which the
// build writes into the tab as __PORTAL_RUNTIME_RANGE__ (and module federation's requiredVersion
// is the same range). A tab whose range the shell's runtime does not satisfy does not mount: it
// draws a short, translated message with a Reload button in its own outlet instead. Drawn with the
// DOM alone: React is shared too, and may be the very thing that skewed.
// Part of the tab (this package is bundled into each), so an old shell's tab refuses as well.
import * as runtime from '@portal/runtime';

declare const __PORTAL_RUNTIME_RANGE__: string | undefined;

/** The range this tab's build declared; null when it was built without one (tests, standalone). */
export const BUILT_RANGE: string | null = typeof __PORTAL_RUNTIME_RANGE__ === 'string' ? __PORTAL_RUNTIME_RANGE__ : null;

/**
 * The runtime API version the shell provides. A runtime from before the version existed exports
 * none: its API is 0.1.0 (its package version then).
 */
export function providedRuntimeVersion(rt: object = runtime): string {
  const v = (rt as { RUNTIME_API_VERSION?: unknown }).RUNTIME_API_VERSION;
  return typeof v === 'string' ? v : '0.1.0';
}

type Satisfy = (version: string, range: string) => boolean;

/**
 * Module federation's own semver check (the one behind `requiredVersion`), from the federation
 * runtime the shell hands every tab (`_FEDERATION_RUNTIME_CORE`; tabs are built without one).
 */
function federationSatisfy(): Satisfy | null {
  const core = (globalThis as { _FEDERATION_RUNTIME_CORE?: { satisfy?: unknown } })._FEDERATION_RUNTIME_CORE;
  return typeof core?.satisfy === 'function' ? (core.satisfy as Satisfy) : null;
}

/** Whether the provided runtime satisfies `range` (no range, or no federation runtime: yes). */
export function compatible(provided: string, range: string | null, satisfy: Satisfy | null = federationSatisfy()): boolean {
  if (!range || !satisfy) return true;
  return satisfy(provided, range);
}

const TEXT: Record<string, { message: string; reload: string }> = {
  en: { message: 'This part of the portal needs an update. Reload the page to get the latest version.', reload: 'Reload' },
  it: {
    message: 'Questa parte del portale deve essere aggiornata. Ricarica la pagina per avere la versione più recente.',
    reload: 'Ricarica',
  },
  es: {
    message: 'Esta parte del portal necesita una actualización. Vuelve a cargar la página para obtener la última versión.',
    reload: 'Volver a cargar',
  },
  fr: {
    message: 'Cette partie du portail doit être mise à jour. Rechargez la page pour obtenir la dernière version.',
    reload: 'Recharger',
  },
  ar: { message: 'يحتاج هذا الجزء من البوابة إلى تحديث. أعد تحميل الصفحة للحصول على أحدث إصدار.', reload: 'إعادة التحميل' },
  de: {
    message: 'Dieser Teil des Portals muss aktualisiert werden. Laden Sie die Seite neu, um die neueste Version zu erhalten.',
    reload: 'Neu laden',
  },
  el: {
    message: 'Αυτό το τμήμα της πύλης χρειάζεται ενημέρωση. Φορτώστε ξανά τη σελίδα για την πιο πρόσφατη έκδοση.',
    reload: 'Επαναφόρτωση',
  },
  th: { message: 'ส่วนนี้ของพอร์ทัลต้องได้รับการอัปเดต โหลดหน้านี้ใหม่เพื่อรับเวอร์ชันล่าสุด', reload: 'โหลดใหม่' },
};

/** The message in the page's language (the runtime's, else the document's), English otherwise. */
export function refusalText(rt: object = runtime): { message: string; reload: string } {
  const lang = (rt as { i18n?: { language?: string } }).i18n?.language || document.documentElement.lang || 'en';
  return TEXT[lang.split('-')[0]] ?? TEXT.en;
}

/** Draws the refusal into `container`; returns the element (removed on unmount). */
export function drawRefusal(container: HTMLElement, name: string, provided: string, range: string): HTMLElement {
  const { message, reload } = refusalText();
  const box = document.createElement('div');
  box.className = 'error-state';
  box.setAttribute('role', 'alert');
  box.dataset.remoteIncompatible = name;
  box.title = `runtime ${provided}, needs ${range}`;
  const p = document.createElement('p');
  p.textContent = message;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn';
  button.textContent = reload;
  button.addEventListener('click', () => window.location.reload());
  box.append(p, button);
  container.appendChild(box);
  return box;
}
