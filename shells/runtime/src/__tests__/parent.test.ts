import { postToParent, setParentOrigin, track } from '../index';
import { postToHost } from '../bridge';
import { resetParentOriginForTests } from '../testing';

// Posting to an embedding page: only its checked origin, only the protocol's messages.
describe('posting to the embedding page', () => {
  const real = Object.getOwnPropertyDescriptor(window, 'parent')!;
  let sent: [unknown, string][];

  beforeEach(() => {
    sent = [];
    const parent = { postMessage: (m: unknown, origin: string) => sent.push([m, origin]) };
    Object.defineProperty(window, 'parent', { configurable: true, get: () => parent });
    resetParentOriginForTests();
  });
  afterEach(() => {
    Object.defineProperty(window, 'parent', real);
    resetParentOriginForTests();
  });

  it('waits for the origin check, then posts on that origin only', () => {
    expect(postToParent({ action: 'login', profile_id: 'p_demo' })).toBe(false);
    expect(sent).toEqual([]);
    setParentOrigin('https://partner.example');
    expect(sent).toEqual([[{ action: 'login', profile_id: 'p_demo' }, 'https://partner.example']]);
    postToHost({ action: 'logout' });
    expect(sent[1]).toEqual([{ action: 'logout' }, 'https://partner.example']);
  });

  it('a refused parent gets nothing, not even what waited', () => {
    postToParent({ action: 'login', profile_id: 'p_demo' });
    setParentOrigin(null);
    postToParent({ action: 'logout' });
    expect(sent).toEqual([]);
  });

  it('analytics and native actions are not the embedding page’s business', () => {
    setParentOrigin('https://partner.example');
    track('my_details_click');
    expect(postToParent({ action: 'gotoWishlist' })).toBe(false);
    expect(sent).toEqual([]);
  });

  it('at most a few messages wait', () => {
    for (let i = 0; i < 50; i++) postToParent({ action: 'resize', height: i });
    setParentOrigin('https://partner.example');
    expect(sent).toHaveLength(20);
  });

  it('not embedded: nothing', () => {
    Object.defineProperty(window, 'parent', real);
    setParentOrigin('https://partner.example');
    expect(postToParent({ action: 'logout' })).toBe(false);
  });
});
