import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { http, initAuth, toHttpError, UNKNOWN_ERROR } from '../index';

describe('http helper', () => {
  it('sends JSON and the Bearer token when signed in', async () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p', exp: Math.floor(Date.now() / 1000) + 60 }));
    initAuth();
    const stub = stubFetch({ 'POST /api/x': { body: { ok: 1 } } });
    await expect(http('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: 1 });
    expect(stub.calls[0].headers.Authorization).toMatch(/^Bearer /);
    expect(stub.calls[0].headers['Content-Type']).toBe('application/json');
    expect(stub.calls[0].body).toEqual({ a: 1 });
    stub.restore();
  });

  it('sends extra headers (an Idempotency-Key) beside its own, which they cannot replace', async () => {
    const stub = stubFetch({ 'POST /api/profile/rewards/redeem': { status: 201, body: { data: {} } } });
    await http('/api/profile/rewards/redeem', {
      method: 'POST',
      body: { catalogue_id: 'coffee' },
      token: 'tok',
      headers: { 'Idempotency-Key': 'key-1', authorization: 'Bearer other', 'content-type': 'text/plain' },
    });
    expect(stub.calls[0].headers).toEqual({
      Accept: 'application/json',
      'Idempotency-Key': 'key-1',
      'Content-Type': 'application/json',
      Authorization: 'Bearer tok',
    });
    // Without the option: only the helper's own headers.
    await http('/api/profile/rewards/redeem', { method: 'POST', body: {}, token: null });
    expect(stub.calls[1].headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
    stub.restore();
  });

  it('passes through the server error shape', async () => {
    const stub = stubFetch({
      'POST /api/auth': { status: 422, body: { status: 422, message: 'Invalid email', errors: { email: 'is invalid' }, error: true } },
    });
    await expect(http('/api/auth', { method: 'POST', body: {} })).rejects.toEqual({
      status: 422,
      message: 'Invalid email',
      errors: { email: 'is invalid' },
      error: true,
      body: { status: 422, message: 'Invalid email', errors: { email: 'is invalid' }, error: true },
    });
    stub.restore();
  });

  it('uses the defaults when the failure has no body', async () => {
    const stub = stubFetch({ 'GET /api/y': { networkError: true } });
    await expect(http('/api/y')).rejects.toEqual({
      status: 500,
      message: UNKNOWN_ERROR,
      errors: { request: 'An unknown error occurred' },
      error: true,
      body: { message: 'An unknown error occurred', errors: { request: 'An unknown error occurred' } },
    });
    stub.restore();
  });

  it('keeps the HTTP status of an empty error response', async () => {
    const stub = stubFetch({ 'GET /api/z': { status: 503 } });
    await expect(http('/api/z')).rejects.toMatchObject({ status: 503, message: UNKNOWN_ERROR, error: true });
    stub.restore();
  });

  it('defaults status and message for a body without them', () => {
    expect(toHttpError(undefined, { foo: 1 })).toEqual({
      status: 500,
      message: 'An unknown error occurred',
      errors: {},
      error: true,
      body: { foo: 1 },
    });
  });
});
