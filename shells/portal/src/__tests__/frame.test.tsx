// The frame's behaviour against the spec's numbers and texts (sections 2, 3, 4 and 9): toasts,
// the progress bar, page title and description, and the config-driven branding.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import {
  addToast,
  configStore,
  http,
  i18n,
  initI18n,
  registerCatalogs,
  startProgress,
  toastStore,
  type PortalConfig,
} from '@portal/runtime';
import { applyConfig } from '@portal/runtime/testing';
import { stubFetch } from '@portal/kit/fetch-stub';
import { Header, ProgressBar, Toasts, PROGRESS_DELAY_MS } from '../layout/Frame';
import { SHELL_NS, shellCatalogs } from '../i18n/catalogs';
import { renderAt } from './setup';

function withI18n(ui: React.ReactElement) {
  initI18n('?lang=en');
  registerCatalogs(SHELL_NS, shellCatalogs);
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}

function config(general: Partial<PortalConfig['general']> = {}, components: Record<string, unknown> = {}): PortalConfig {
  return { general: { tenant: 'demo', ...general }, components, lastUpdated: 1 } as PortalConfig;
}

function setConfig(c: PortalConfig | null) {
  act(() => configStore.set({ config: c, loaded: true }));
}

afterEach(() => {
  act(() => toastStore.set({ toasts: [] }));
  jest.useRealTimers();
});

describe('toasts', () => {
  beforeEach(() => jest.useFakeTimers());

  it('shows at most three, newest first', () => {
    withI18n(<Toasts />);
    act(() => {
      for (const n of [1, 2, 3, 4]) addToast({ text: `toast ${n}`, infinite: true });
    });
    const shown = screen.getAllByRole('status').map((el) => el.textContent);
    expect(shown).toHaveLength(3);
    expect(shown[0]).toContain('toast 4');
    expect(shown[1]).toContain('toast 3');
    expect(shown[2]).toContain('toast 2');
  });

  it('leaves after 2000 ms by default: marked out, then gone 300 ms later', () => {
    withI18n(<Toasts />);
    act(() => void addToast({ title: 'Saved', text: 'Your details are saved', type: 'success' }));
    const toast = screen.getByRole('status');
    act(() => void jest.advanceTimersByTime(1999));
    expect(toast).not.toHaveClass('toast--out');
    act(() => void jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast--out');
    act(() => void jest.advanceTimersByTime(299));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('keeps an infinite toast until dismissed, and errors are alerts', () => {
    withI18n(<Toasts />);
    act(() => void addToast({ text: 'Something went wrong', type: 'error', infinite: true }));
    act(() => void jest.advanceTimersByTime(60_000));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    fireEvent.click(within(alert).getByRole('button', { name: 'Close notification' }));
    act(() => void jest.advanceTimersByTime(300));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers no close button when it cannot be dismissed, and runs its onClick', () => {
    const onClick = jest.fn();
    withI18n(<Toasts />);
    act(() => void addToast({ text: 'Tap to see', canDismiss: false, onClick, timeout: 5000 }));
    const toast = screen.getByRole('status');
    expect(within(toast).queryByRole('button')).not.toBeInTheDocument();
    fireEvent.click(toast);
    expect(onClick).toHaveBeenCalledTimes(1);
    act(() => void jest.advanceTimersByTime(4999));
    expect(toast).not.toHaveClass('toast--out');
    act(() => void jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast--out');
  });
});

describe('progress bar', () => {
  beforeEach(() => jest.useFakeTimers());

  it('shows only after 64 ms of something pending, and hides when done', () => {
    expect(PROGRESS_DELAY_MS).toBe(64);
    withI18n(<ProgressBar />);
    let done: () => void = () => undefined;
    act(() => void (done = startProgress()));
    act(() => void jest.advanceTimersByTime(63));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(1));
    // Named in the page's language, like every other text.
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    act(() => done());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('never shows for work that ends within 64 ms', () => {
    withI18n(<ProgressBar />);
    act(() => {
      const done = startProgress();
      jest.advanceTimersByTime(50);
      done();
    });
    act(() => void jest.advanceTimersByTime(500));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows while a request is in flight', async () => {
    let answer: () => void = () => undefined;
    const stub = stubFetch({
      'GET /api/profile': () => new Promise((resolve) => (answer = () => resolve({ body: { id: 'p' } }))),
    });
    withI18n(<ProgressBar />);
    let request!: Promise<unknown>;
    act(() => void (request = http('/api/profile')));
    act(() => void jest.advanceTimersByTime(64));
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    await act(async () => {
      answer();
      await request;
    });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    stub.restore();
  });
});

describe('page title and description', () => {
  it('default to the spec texts and follow the config', () => {
    applyConfig(config());
    expect(document.title).toBe('My account');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute('content', 'Manage your profile, transactions and more');
    applyConfig(config({ siteMeta: { title: 'Harbour rewards', description: 'Points and more' } }));
    expect(document.title).toBe('Harbour rewards');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute('content', 'Points and more');
    expect(document.querySelector('meta[property="og:title"]')).toHaveAttribute('content', 'Harbour rewards');
    expect(document.querySelector('meta[property="og:description"]')).toHaveAttribute('content', 'Points and more');
  });
});

describe('branding from config', () => {
  afterEach(() => applyConfig(config()));

  it('og image and url, resolved to absolute addresses; refused when not http(s)', () => {
    applyConfig(config({ siteMeta: { ogImageUrl: '/assets/og-image.png', url: 'https://rewards.example/' } }));
    expect(document.querySelector('meta[property="og:image"]')).toHaveAttribute('content', 'http://localhost/assets/og-image.png');
    expect(document.querySelector('meta[property="og:url"]')).toHaveAttribute('content', 'https://rewards.example/');
    applyConfig(config({ siteMeta: { ogImageUrl: 'javascript:alert(1)' } }));
    expect(document.querySelector('meta[property="og:image"]')).toBeNull();
  });

  it("the tenant's stylesheet (styleUrl) is linked once, replaced and removed with the config", () => {
    applyConfig(config({ styleUrl: 'https://cdn.example/brand.css' }));
    applyConfig(config({ styleUrl: 'https://cdn.example/brand.css' }));
    const links = document.querySelectorAll('link[rel="stylesheet"]#tenant-style');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://cdn.example/brand.css');
    applyConfig(config({ styleUrl: 'https://cdn.example/brand-v2.css' }));
    expect(document.getElementById('tenant-style')).toHaveAttribute('href', 'https://cdn.example/brand-v2.css');
    applyConfig(config({ styleUrl: null }));
    expect(document.getElementById('tenant-style')).toBeNull();
  });

  it('background colour and the desktop image', () => {
    const root = document.documentElement.style;
    applyConfig(config({ background: { color: '#101820', desktop: { url: 'https://cdn.example/bg.jpg' } } }));
    expect(root.getPropertyValue('--color-bg')).toBe('#101820');
    expect(root.getPropertyValue('--bg-desktop-image')).toBe('url("https://cdn.example/bg.jpg")');
    applyConfig(config({ background: { desktop: { url: null } } }));
    expect(root.getPropertyValue('--bg-desktop-image')).toBe('');
  });

  it('the logo in the header, which is sticky unless coverHeader.sticky is false', () => {
    withI18n(<Header />);
    setConfig(config({ logo: 'https://cdn.example/logo.svg' }));
    const logo = screen.getByRole('img', { name: 'Home' });
    expect(logo).toHaveAttribute('src', 'https://cdn.example/logo.svg');
    expect(screen.getByRole('banner')).toHaveClass('header--sticky');
    setConfig(config({ coverHeader: { sticky: false } }));
    expect(screen.getByRole('img', { name: 'Home' })).toHaveAttribute('src', '/assets/logo.svg');
    expect(screen.getByRole('banner')).not.toHaveClass('header--sticky');
  });

  it('the login page shows the cover image from components.index.coverHeader', () => {
    setConfig(config({}, { index: { coverHeader: { url: 'https://cdn.example/cover.jpg', alt: 'Our flagship store' } } }));
    renderAt('/');
    expect(screen.getByRole('img', { name: 'Our flagship store' })).toHaveAttribute('src', 'https://cdn.example/cover.jpg');
  });

  it('no cover image by default', () => {
    setConfig(config({}, { index: { coverHeader: null } }));
    const { container } = renderAt('/');
    expect(container.querySelector('.login-cover')).toBeNull();
  });

  it('the Logged out screen shows components.logout.logo, else the main logo', () => {
    setConfig(config({ logo: '/assets/logo.svg' }, { logout: { logo: 'https://cdn.example/goodbye.svg' } }));
    const { container, unmount } = renderAt('/logged-out');
    expect(container.querySelector('.status-screen__logo')).toHaveAttribute('src', 'https://cdn.example/goodbye.svg');
    unmount();
    setConfig(config({ logo: '/assets/logo.svg' }, { logout: { logo: null } }));
    const again = renderAt('/logged-out');
    expect(again.container.querySelector('.status-screen__logo')).toHaveAttribute('src', '/assets/logo.svg');
  });
});
