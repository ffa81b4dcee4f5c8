import { act, fireEvent, screen } from '@testing-library/react';
import { initAuth } from '@portal/runtime';
import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { remoteStatus, setRetryHandler } from '../mfe/status';
import { fetchManifest } from '../mfe/manifest';
import { remoteForPath, safeRedirect } from '../mfe/routes';

describe('remotes', () => {
  beforeEach(() => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p', exp: Math.floor(Date.now() / 1000) + 600 }));
    initAuth();
  });

  it('shows the fallback with a working retry when a remote failed', () => {
    const retry = jest.fn();
    setRetryHandler(retry);
    act(() => remoteStatus.set({ manifest: 'ready', failed: ['mfe_orders'] }));
    renderAt('/transactions');
    expect(screen.getByRole('heading', { name: 'This section could not be loaded' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
    act(() => remoteStatus.set({ manifest: 'ready', failed: [] }));
    expect(screen.queryByText('This section could not be loaded')).toBeNull();
    setRetryHandler(null);
  });

  it('shows the fallback when the manifest failed', () => {
    act(() => remoteStatus.set({ manifest: 'failed', failed: [] }));
    renderAt('/rewards');
    expect(screen.getByText('This section could not be loaded')).toBeInTheDocument();
    act(() => remoteStatus.set({ manifest: 'ready', failed: [] }));
  });

  it('reads the manifest entries and rejects bad answers', async () => {
    let stub = stubFetch({
      'GET /mfe-manifest.json': { body: { mfe_profile: { entry: '/mfe/mfe-profile/0.1.0/mf-manifest.json', version: '0.1.0' }, junk: 1 } },
    });
    await expect(fetchManifest()).resolves.toEqual({
      mfe_profile: { entry: '/mfe/mfe-profile/0.1.0/mf-manifest.json', version: '0.1.0', canary: false },
    });
    stub.restore();
    stub = stubFetch({ 'GET /mfe-manifest.json': { status: 404 } });
    await expect(fetchManifest()).rejects.toThrow('manifest HTTP 404');
    stub.restore();
  });

  it('gives up on the manifest after the timeout', async () => {
    jest.useFakeTimers();
    const original = globalThis.fetch;
    globalThis.fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      })) as typeof fetch;
    const pending = fetchManifest(5000);
    jest.advanceTimersByTime(5000);
    await expect(pending).rejects.toThrow('aborted');
    globalThis.fetch = original;
    jest.useRealTimers();
  });

  it('maps routes to remotes and keeps redirects on this site', () => {
    expect(remoteForPath('/rewards/item/101')).toEqual({ remote: 'mfe_rewards', route: '/rewards/item/:id' });
    expect(remoteForPath('/profile/')).toEqual({ remote: 'mfe_profile', route: '/profile' });
    expect(remoteForPath('/profile/privacy')).toEqual({ remote: 'mfe_profile', route: '/profile/privacy' });
    expect(remoteForPath('/nope')).toBeNull();
    expect(safeRedirect('//evil.example')).toBe('/home');
    expect(safeRedirect('https://evil.example')).toBe('/home');
    expect(safeRedirect('/transactions')).toBe('/transactions');
    expect(safeRedirect(null)).toBe('/home');
  });
});
