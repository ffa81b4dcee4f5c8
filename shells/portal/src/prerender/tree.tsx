import { I18nextProvider } from 'react-i18next';
import { i18n } from '@portal/runtime';
import { App } from '../layout/App';

/** The app's tree: what the build draws (render.tsx) is what the client hydrates (start.tsx). */
export function AppTree({ onReady }: { onReady?: () => void }) {
  return (
    <I18nextProvider i18n={i18n}>
      <App onReady={onReady} />
    </I18nextProvider>
  );
}
