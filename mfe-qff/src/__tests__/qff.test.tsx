import { fireEvent, render, screen } from '@testing-library/react';
import { initI18n } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { Root } from '../Root';
import { clearQffPointsCache } from '../features/points/hooks/use-qff-points';

const LINKED = { linked: true, qff_number: '1900123456', points: 12000 };
const pointsCalls = (s: FetchStub) => s.calls.filter((c) => c.method === 'GET' && c.path === '/api/qff/points').length;

let stub: FetchStub | undefined;
beforeEach(() => initI18n('?lang=en'));
afterEach(() => {
  stub?.restore();
  clearQffPointsCache();
});

describe('mfe-qff', () => {
  it('shows number and points when linked', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { body: LINKED } });
    render(<Root />);
    expect(screen.getByRole('heading', { name: 'Qantas Frequent Flyer' })).toBeInTheDocument();
    expect(await screen.findByText('1900123456')).toBeInTheDocument();
    expect(screen.getByText('12,000')).toBeInTheDocument();
  });

  it('explains linking when not linked', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { body: { linked: false } } });
    render(<Root />);
    expect(await screen.findByText(/Link your Qantas Frequent Flyer membership/)).toBeInTheDocument();
  });

  it('reuses the cached answer when mounted again', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { body: LINKED } });
    const first = render(<Root />);
    await screen.findByText('1900123456');
    first.unmount();
    render(<Root />);
    expect(screen.getByText('1900123456')).toBeInTheDocument();
    expect(pointsCalls(stub)).toBe(1);
  });

  it('retries a server error once, then offers a retry that refetches', async () => {
    let fail = true;
    stub = stubFetch({
      'GET /api/qff/points': () => (fail ? { status: 503, body: { status: 503, message: 'down', errors: {}, error: true } } : { body: LINKED }),
    });
    render(<Root />);
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 3000 });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(pointsCalls(stub)).toBe(2);
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText('1900123456')).toBeInTheDocument();
    expect(pointsCalls(stub)).toBe(3);
  });

  it('does not retry a client error', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { status: 404, body: { status: 404, message: 'Not found', errors: {}, error: true } } });
    render(<Root />);
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(pointsCalls(stub)).toBe(1);
  });

  it('retries a network error once and shows the answer', async () => {
    let calls = 0;
    stub = stubFetch({ 'GET /api/qff/points': () => (++calls === 1 ? { networkError: true } : { body: LINKED }) });
    render(<Root />);
    expect(await screen.findByText('1900123456', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(pointsCalls(stub)).toBe(2);
  });
});
