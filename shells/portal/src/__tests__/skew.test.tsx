// Version skew between the shell and a tab (the matrix): the shell provides @portal/runtime,
// whose API has a version (RUNTIME_API_VERSION); a tab declares the range it needs (its
// package.json dependency, built in). Old shell + new tab, new shell + old tab: either it mounts,
// or it refuses with a translated message and a Reload button in its own outlet, and tells the
// shell (reportProblem 'incompatible'): never a blank outlet, never a crash.
import fs from 'node:fs';
import path from 'node:path';
import { act, screen } from '@testing-library/react';
import { createMfe, type MfeProps } from '@portal/kit/mfe-app';

let mockProvided: string | undefined = '0.1.0';
jest.mock('@portal/runtime', () => {
  const actual = jest.requireActual('@portal/runtime');
  return new Proxy(actual, { get: (t, k) => (k === 'RUNTIME_API_VERSION' ? mockProvided : t[k as keyof typeof t]) });
});

const REPO = path.resolve(__dirname, '../../../..');
const readJson = (p: string) => JSON.parse(fs.readFileSync(path.join(REPO, p), 'utf8'));

beforeAll(() => {
  // What the shell's federation runtime plugin hands every tab (provide-runtime.ts).
  (globalThis as Record<string, unknown>)._FEDERATION_RUNTIME_CORE = jest.requireActual('@module-federation/runtime-core');
});
afterAll(() => {
  delete (globalThis as Record<string, unknown>)._FEDERATION_RUNTIME_CORE;
});

function Tab() {
  return <h1>Rewards</h1>;
}

async function mountWith(provided: string | undefined, requires: string) {
  mockProvided = provided;
  const host = document.createElement('div');
  document.body.appendChild(host);
  const reportProblem = jest.fn();
  // awaitCommit: false: inside act(), React commits once the mount has returned.
  const app = createMfe(Tab, { requires, awaitCommit: false });
  const props: MfeProps = { name: 'mfe_rewards', domElement: host, reportProblem };
  await act(() => app.mount(props));
  return { host, reportProblem, unmount: () => act(() => app.unmount(props)) };
}

const MATRIX: Array<[string, string | undefined, string, 'mounts' | 'refuses']> = [
  ['this shell, this tab', '0.1.0', '^0.1.0', 'mounts'],
  ['a newer shell (a patch: additions), an older tab', '0.1.4', '^0.1.0', 'mounts'],
  ['a shell from before the version existed (API 0.1.0), this tab', undefined, '^0.1.0', 'mounts'],
  ['an older shell, a tab that needs a newer runtime', '0.1.0', '^0.1.3', 'refuses'],
  ['a newer shell that broke the API (0.x minor), an older tab', '0.2.0', '^0.1.0', 'refuses'],
  ['a 1.x shell with additions, a tab built against 1.2', '1.4.0', '^1.2.0', 'mounts'],
  ['a 2.x shell, a tab built against 1.x', '2.0.0', '^1.2.0', 'refuses'],
];

describe.each(MATRIX)('%s (runtime %s, tab needs %s)', (_case, provided, requires, expected) => {
  it(expected, async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { host, reportProblem, unmount } = await mountWith(provided, requires);
    if (expected === 'mounts') {
      expect(screen.getByRole('heading', { name: 'Rewards' })).toBeInTheDocument();
      expect(reportProblem).not.toHaveBeenCalled();
    } else {
      expect(screen.queryByRole('heading', { name: 'Rewards' })).toBeNull();
      const alert = screen.getByRole('alert');
      expect(host).toContainElement(alert);
      expect(alert).toHaveTextContent('This part of the portal needs an update. Reload the page to get the latest version.');
      expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
      expect(reportProblem).toHaveBeenCalledWith('incompatible');
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining(`needs @portal/runtime ${requires}`));
    }
    await unmount();
    expect(host).toBeEmptyDOMElement();
    host.remove();
    quiet.mockRestore();
  });
});

describe('the versions in the repository', () => {
  it('the runtime API version is its package version, and every tab built now accepts it', () => {
    const { RUNTIME_API_VERSION } = jest.requireActual('@portal/runtime');
    const { satisfy } = jest.requireActual('@module-federation/runtime-core');
    const { runtimeRange } = jest.requireActual('@portal/build');
    expect(RUNTIME_API_VERSION).toBe(readJson('shells/runtime/package.json').version);
    for (const tab of ['mfe-profile', 'mfe-orders', 'mfe-rewards', 'mfe-qff']) {
      const range = runtimeRange(readJson(`${tab}/package.json`));
      expect([tab, typeof range]).toEqual([tab, 'string']);
      expect([tab, satisfy(RUNTIME_API_VERSION, range)]).toEqual([tab, true]);
    }
  });

  it('the refusal is in the page’s language', () => {
    const { refusalText } = jest.requireActual('@portal/kit/mfe-app');
    expect(refusalText({ i18n: { language: 'ar' } })).toEqual({
      message: 'يحتاج هذا الجزء من البوابة إلى تحديث. أعد تحميل الصفحة للحصول على أحدث إصدار.',
      reload: 'إعادة التحميل',
    });
    expect(refusalText({ i18n: { language: 'fr' } }).reload).toBe('Recharger');
    expect(refusalText({ i18n: { language: 'xx' } }).reload).toBe('Reload');
  });
});
