import { stubFetch } from '@portal/kit/fetch-stub';
import { homeProfile, prefetchHomeProfile } from '../features/home/api/home-data';

describe("Home's early profile request", () => {
  it('is asked for once at start and taken by Home; a later visit asks afresh', async () => {
    const stub = stubFetch({ 'GET /api/profile': { body: { id: 'p', first_name: 'Dana' } } });
    prefetchHomeProfile();
    prefetchHomeProfile();
    expect(stub.calls).toHaveLength(1);
    await expect(homeProfile(new AbortController().signal)).resolves.toMatchObject({ first_name: 'Dana' });
    expect(stub.calls).toHaveLength(1);
    await homeProfile(new AbortController().signal);
    expect(stub.calls).toHaveLength(2);
    stub.restore();
  });
});
