import { fireEvent, screen } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { LINKED, backend, callsTo, eventNames, failure, renderView, resetAll } from './fixtures';

let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => stub.restore());

const statusCalls = () => callsTo(stub, 'GET', '/api/qff/points').length;

describe('summary on /home', () => {
  it('shows the number and the Qantas Points when linked, with a way to Rewards', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('summary', '/home');
    expect(screen.getByRole('heading', { name: 'Qantas Frequent Flyer' })).toBeInTheDocument();
    expect(await screen.findByText('1900123456')).toBeInTheDocument();
    expect(screen.getByText('48,250')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Convert points and see your Qantas activity' });
    expect(link).toHaveAttribute('href', '/rewards');
    fireEvent.click(link);
    expect(eventNames()).toEqual(['rewards_click']);
    // No balances, history or conversions: one GET.
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/qff/points']);
  });

  it('says why the Qantas Points are missing when the partner could not be read', async () => {
    stub = backend({
      'GET /api/qff/points': { body: { ...LINKED, points: null, partner_error: "We can't reach Qantas Frequent Flyer right now." } },
    });
    await renderView('summary', '/home');
    expect(await screen.findByText("We can't reach Qantas Frequent Flyer right now.")).toBeInTheDocument();
  });

  it('links to Rewards to link an account when there is none', async () => {
    stub = backend();
    await renderView('summary', '/home');
    expect(await screen.findByRole('link', { name: 'Link your Qantas Frequent Flyer account' })).toHaveAttribute('href', '/rewards');
  });

  it('reuses the cached answer when mounted again', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    const first = await renderView('summary', '/home');
    await screen.findByText('1900123456');
    first.unmount();
    await renderView('summary', '/home');
    expect(screen.getByText('1900123456')).toBeInTheDocument();
    expect(statusCalls()).toBe(1);
  });

  it('retries a server error once, then offers a retry that refetches', async () => {
    let fail = true;
    stub = backend({ 'GET /api/qff/points': () => (fail ? failure(503, 'down') : { body: LINKED }) });
    await renderView('summary', '/home');
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 3000 });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(statusCalls()).toBe(2);
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText('1900123456')).toBeInTheDocument();
    expect(statusCalls()).toBe(3);
  });

  it('does not retry a client error', async () => {
    stub = backend({ 'GET /api/qff/points': failure(404, 'Not found') });
    await renderView('summary', '/home');
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(statusCalls()).toBe(1);
  });

  it('retries a network error once and shows the answer', async () => {
    let calls = 0;
    stub = backend({ 'GET /api/qff/points': () => (++calls === 1 ? { networkError: true } : { body: LINKED }) });
    await renderView('summary', '/home');
    expect(await screen.findByText('1900123456', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(statusCalls()).toBe(2);
  });
});
