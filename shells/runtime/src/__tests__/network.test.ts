import { stubFetch } from '@portal/kit/fetch-stub';
import { networkStore, watchNetwork } from '../index';
import { probeNetwork } from '../network';

describe('network', () => {
  it('goes offline on the browser event and when the probe cannot reach the API', async () => {
    const stop = watchNetwork(3000);
    window.dispatchEvent(new Event('offline'));
    expect(networkStore.get().online).toBe(false);
    let stub = stubFetch({ 'GET /api/network/available': { body: { available: true } } });
    await probeNetwork();
    expect(networkStore.get().online).toBe(true);
    stub.restore();
    stub = stubFetch({ 'GET /api/network/available': { networkError: true } });
    await probeNetwork();
    expect(networkStore.get().online).toBe(false);
    stub.restore();
    stop();
  });

  it('polls every 3000 ms', () => {
    jest.useFakeTimers();
    const stub = stubFetch({ 'GET /api/network/available': { body: { available: true } } });
    const stop = watchNetwork();
    jest.advanceTimersByTime(2999);
    expect(stub.calls).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(stub.calls).toHaveLength(1);
    jest.advanceTimersByTime(3000);
    expect(stub.calls).toHaveLength(2);
    stop();
    stub.restore();
    jest.useRealTimers();
  });
});
