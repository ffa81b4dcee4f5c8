import { stubFetch } from '@portal/kit/fetch-stub';
import { configStore, loadConfig } from '../index';

const CONFIG = {
  general: {
    tenant: 'demo',
    siteMeta: { title: 'Demo account', description: 'Demo description' },
    logo: '/assets/logo.svg',
    theme: {
      primary: '#112233',
      onPrimary: '#ffffff',
      accent: '#c8553d',
      background: '#f4f1ec',
      surface: '#ffffff',
      text: '#1b1b1b',
      muted: '#5c5c5c',
    },
  },
  lastUpdated: 100,
};

describe('config store', () => {
  it('fetches config, applies design tokens and page meta, and caches it', async () => {
    const stub = stubFetch({ 'GET /api/config': { body: CONFIG } });
    await loadConfig();
    const root = document.documentElement.style;
    expect(root.getPropertyValue('--color-primary')).toBe('#112233');
    expect(root.getPropertyValue('--color-on-primary')).toBe('#ffffff');
    expect(root.getPropertyValue('--color-bg')).toBe('#f4f1ec');
    expect(document.title).toBe('Demo account');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Demo description');
    expect(JSON.parse(localStorage.getItem('portal.config')!).lastUpdated).toBe(100);
    expect(configStore.get().loaded).toBe(true);
    stub.restore();
  });

  it('uses the cache and skips the refetch when the age is not newer', async () => {
    localStorage.setItem('portal.config', JSON.stringify(CONFIG));
    const stub = stubFetch({ 'GET /api/config/age': { body: { age: 100 } }, 'GET /api/config': { body: CONFIG } });
    await loadConfig();
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/config/age']);
    stub.restore();
  });

  it('refetches when the server has newer config', async () => {
    localStorage.setItem('portal.config', JSON.stringify(CONFIG));
    const newer = { ...CONFIG, general: { ...CONFIG.general, siteMeta: {} }, lastUpdated: 200 };
    const stub = stubFetch({ 'GET /api/config/age': { body: { age: 200 } }, 'GET /api/config': { body: newer } });
    await loadConfig();
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/config/age', '/api/config']);
    expect(document.title).toBe('My account');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Manage your profile, transactions and more');
    stub.restore();
  });

  it('only logs a failed fetch', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const stub = stubFetch({ 'GET /api/config': { status: 500 } });
    await expect(loadConfig()).resolves.toBeDefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
    stub.restore();
  });
});
