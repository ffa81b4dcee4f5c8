import { screenView, track } from '../index';
import { onAnalytics } from '../analytics';

describe('analytics through the bridge', () => {
  it('posts analytics to the native wrapper when present', () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
    const seen: string[] = [];
    const off = onAnalytics((e) => seen.push(`${e.type}:${e.name}`));
    track('my_details_click');
    screenView('My Details');
    off();
    delete window.ReactNativeWebView;
    expect(seen).toEqual(['event:my_details_click', 'screen_view:My Details']);
    expect(JSON.parse(posted[0])).toMatchObject({ action: 'firebaseAnalytics', name: 'my_details_click' });
  });
});
