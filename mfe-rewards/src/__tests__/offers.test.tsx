import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { languageReady, setLanguage } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub, StubRequest } from '@portal/kit/fetch-stub';
import { OFFERS, backend, callsTo, failure, offer, renderAt, resetAll, signIn } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => {
  stub.restore();
  delete window.ReactNativeWebView;
  setLanguage('en');
});

const card = (name: string) => screen.getByRole('article', { name });

describe('Offers', () => {
  it('shows the offers with the texts the server gave (overrides applied), banners, end dates and states', async () => {
    const views: string[] = [];
    const off = onAnalytics((e: AnalyticsEvent) => views.push(`${e.type}:${e.name}`));
    await renderAt('/offers');
    expect(screen.getByRole('heading', { level: 1, name: 'Offers' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Double points, this weekend only' })).toBeInTheDocument();
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Double points, this weekend only',
      'Birthday gift',
      'Free alterations',
    ]);

    const double = card('Double points, this weekend only');
    expect(within(double).getByText('Shop Saturday or Sunday and earn twice the points')).toBeInTheDocument();
    expect(within(double).getByText('Ends 30 Nov 2026')).toBeInTheDocument();
    // Both banners are there; CSS shows the desktop one on wide screens, the mobile one on narrow ones.
    const banners = double.querySelectorAll('img');
    expect([...banners].map((img) => [img.getAttribute('src'), img.className])).toEqual([
      ['https://cdn.example.com/banners/double-wide.jpg', 'offer__banner offer__banner--desktop'],
      ['https://cdn.example.com/banners/double-narrow.jpg', 'offer__banner offer__banner--mobile'],
    ]);
    expect(banners[0]).toHaveAttribute('alt', '');
    expect(within(double).getByRole('button', { name: 'Activate Double points, this weekend only' })).toBeEnabled();

    const birthday = card('Birthday gift');
    expect(within(birthday).queryByRole('button')).toBeNull();
    expect(within(birthday).getByText('No need to activate: this offer applies automatically.')).toBeInTheDocument();
    expect(birthday.querySelector('img')).toBeNull();

    const alterations = card('Free alterations');
    expect(within(alterations).queryByRole('button')).toBeNull();
    expect(within(alterations).getByRole('status')).toHaveTextContent('Activated');
    expect(within(alterations).getByRole('status').querySelector('svg')).not.toBeNull();
    off();
    expect(views).toEqual(['screen_view:Offers']);
  });

  it('shows a text banner as text, and one banner alone on every screen', async () => {
    stub.restore();
    stub = backend({
      'GET /api/profile/benefits': {
        body: { data: [offer(210, { name: 'Members night', banner_desktop: 'Late opening, 20% off', banner_mobile: null })] },
      },
    });
    await renderAt('/offers');
    const banner = await screen.findByText('Late opening, 20% off');
    expect(banner.closest('p')).toHaveClass('offer__banner', 'offer__banner--only');
  });

  it('activates once even on a double click, then says "Activated" (announced) and the button is gone', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const posts: StubRequest[] = [];
    stub.restore();
    stub = backend({
      'POST /api/profile/benefits/201/activate': async (req) => {
        posts.push(req);
        await gate;
        return { body: { data: { ...OFFERS[0], activated: true, activated_at: '2026-11-21T00:00:00Z' } } };
      },
    });
    await renderAt('/offers');
    const double = await screen.findByRole('article', { name: 'Double points, this weekend only' });
    const status = within(double).getByRole('status');
    expect(status).toBeEmptyDOMElement();
    const button = within(double).getByRole('button', { name: /^Activate/ });
    act(() => {
      button.click();
      button.click();
    });
    expect(within(double).getByRole('button', { name: /^Activating…/ })).toBeDisabled();
    await act(async () => open());
    await waitFor(() => expect(status).toHaveTextContent('Activated'));
    expect(within(double).queryByRole('button')).toBeNull();
    expect(document.activeElement).toBe(status);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toBeUndefined();
  });

  it('tells why an offer could not be activated (409) and fetches the offers again', async () => {
    stub.restore();
    stub = backend({ 'POST /api/profile/benefits/201/activate': failure(409, 'This offer has ended') });
    await renderAt('/offers');
    const double = await screen.findByRole('article', { name: 'Double points, this weekend only' });
    fireEvent.click(within(double).getByRole('button', { name: /^Activate/ }));
    expect(await within(double).findByRole('alert')).toHaveTextContent('This offer has ended');
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/benefits')).toHaveLength(2));
  });

  it('a server fault gets a friendly message, and the button stays to try again', async () => {
    stub.restore();
    stub = backend({ 'POST /api/profile/benefits/201/activate': failure(500, 'database exploded') });
    await renderAt('/offers');
    const double = await screen.findByRole('article', { name: 'Double points, this weekend only' });
    fireEvent.click(within(double).getByRole('button', { name: /^Activate/ }));
    const alert = await within(double).findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't activate this offer. Please try again.");
    expect(within(double).getByRole('button', { name: /^Activate/ })).toBeEnabled();
  });

  it('?b={id} scrolls to that offer, highlights and focuses it', async () => {
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
      scrolled.push(this);
    };
    await renderAt('/offers?b=203');
    const alterations = await screen.findByRole('article', { name: 'Free alterations' });
    await waitFor(() => expect(document.activeElement).toBe(alterations));
    expect(alterations).toHaveClass('offer--highlight');
    expect(scrolled).toEqual([alterations]);
    expect(card('Birthday gift')).not.toHaveClass('offer--highlight');
    Element.prototype.scrollIntoView = original;
  });

  it('?b= naming an offer that is not there says so and shows the others', async () => {
    await renderAt('/offers?b=999');
    expect(
      await screen.findByText("The offer you followed has ended or isn't available to you. Here are your current offers."),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('inside the native wrapper, posts loadOfferList with the offers’ ids once they are loaded', async () => {
    const posted: Record<string, unknown>[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    await renderAt('/offers');
    await screen.findByRole('article', { name: 'Free alterations' });
    await waitFor(() =>
      expect(posted.filter((m) => m.action === 'loadOfferList')).toEqual([{ action: 'loadOfferList', ids: [201, 202, 203] }]),
    );
  });

  it('outside the wrapper posts nothing', async () => {
    const parent = jest.spyOn(window.parent, 'postMessage');
    await renderAt('/offers');
    await screen.findByRole('article', { name: 'Free alterations' });
    expect(parent).not.toHaveBeenCalledWith(expect.objectContaining({ action: 'loadOfferList' }), expect.anything());
    parent.mockRestore();
  });

  it('says when there are no offers', async () => {
    stub.restore();
    stub = backend({ 'GET /api/profile/benefits': { body: { data: [] } } });
    await renderAt('/offers');
    expect(await screen.findByText('There are no offers for you right now.')).toBeInTheDocument();
  });

  it('a failed load shows the error state, and tries again', async () => {
    let fail = true;
    stub.restore();
    stub = backend({ 'GET /api/profile/benefits': () => (fail ? failure(500, 'database exploded') : { body: { data: OFFERS } }) });
    await renderAt('/offers');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert).toHaveTextContent('Something went wrong');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Birthday gift' })).toBeInTheDocument();
  });

  it('a staff member viewing the account sees the offers without Activate buttons', async () => {
    signIn({ impersonating: true });
    await renderAt('/offers');
    await screen.findByRole('article', { name: 'Birthday gift' });
    expect(screen.queryByRole('button', { name: /^Activate/ })).toBeNull();
    expect(screen.getByText("You're viewing this account as staff: activating offers is switched off.")).toBeInTheDocument();
  });

  it('in Arabic: right to left, names isolated, the states translated', async () => {
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/offers');
    expect(document.documentElement.dir).toBe('rtl');
    const name = await screen.findByText('Birthday gift');
    expect(name.tagName).toBe('BDI');
    expect(screen.getByRole('heading', { level: 1, name: 'العروض' })).toBeInTheDocument();
    expect(within(card('Free alterations')).getByRole('status')).toHaveTextContent('مُفعّل');
  });
});
