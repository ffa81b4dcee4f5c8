// The leave guards (issue 24): a page with unsaved work is asked before a member's link, or the
// browser's Back or Forward, leaves it; programmatic navigation is never held up.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Link, addLeaveGuard, navigate, requestNavigation, usePathname } from '../router';

beforeEach(() => window.history.replaceState(null, '', '/profile'));

describe('leave guards', () => {
  it('a link goes at once when nothing is unsaved', () => {
    render(<Link href="/rewards">Rewards</Link>);
    fireEvent.click(screen.getByRole('link', { name: 'Rewards' }));
    expect(window.location.pathname).toBe('/rewards');
  });

  it('a link waits for the guard, and stays when it says no', async () => {
    let answer!: (go: boolean) => void;
    const asked: string[] = [];
    const off = addLeaveGuard((to) => {
      asked.push(to);
      return new Promise<boolean>((resolve) => (answer = resolve));
    });
    render(<Link href="/rewards">Rewards</Link>);
    fireEvent.click(screen.getByRole('link', { name: 'Rewards' }));
    expect(asked).toEqual(['/rewards']);
    expect(window.location.pathname).toBe('/profile');
    await act(async () => answer(false));
    expect(window.location.pathname).toBe('/profile');

    fireEvent.click(screen.getByRole('link', { name: 'Rewards' }));
    await act(async () => answer(true));
    expect(window.location.pathname).toBe('/rewards');
    off();
  });

  it('is not asked for a link to the page already shown, nor by programmatic navigation, nor once removed', () => {
    const guard = jest.fn(() => false);
    const off = addLeaveGuard(guard);
    requestNavigation('/profile');
    navigate('/logged-out');
    expect(window.location.pathname).toBe('/logged-out');
    expect(guard).not.toHaveBeenCalled();
    off();
    requestNavigation('/home');
    expect(window.location.pathname).toBe('/home');
    expect(guard).not.toHaveBeenCalled();
  });
});

/** The page as the router shows it: the path its subscribers (Routes, usePathname) last read. */
function Shown() {
  return <p data-testid="shown">{usePathname()}</p>;
}
const shown = () => screen.getByTestId('shown').textContent;

/** The browser's Back (or Forward): resolves after the moves it causes (a corrective one, a second) settle. */
async function traverse(delta: number) {
  await act(async () => {
    window.history.go(delta);
    await new Promise((r) => setTimeout(r, 50));
  });
}

describe('Back and Forward with a leave guard', () => {
  beforeEach(() => {
    navigate('/home');
    navigate('/profile');
  });

  it('with no guard, Back goes at once, asking nothing', async () => {
    render(<Shown />);
    await traverse(-1);
    expect(window.location.pathname).toBe('/home');
    expect(shown()).toBe('/home');
    await traverse(1);
    expect(shown()).toBe('/profile');
  });

  it('asks first; "Stay" keeps the address and the page, "Leave" goes back', async () => {
    let answer!: (go: boolean) => void;
    const asked: string[] = [];
    const off = addLeaveGuard((to) => {
      asked.push(to);
      return new Promise<boolean>((resolve) => (answer = resolve));
    });
    const moves = jest.fn();
    window.addEventListener('popstate', moves);
    render(<Shown />);

    await traverse(-1);
    expect(asked).toEqual(['/home']);
    expect(window.location.pathname).toBe('/profile');
    expect(shown()).toBe('/profile');
    // Neither the move nor its undoing reached the page.
    expect(moves).not.toHaveBeenCalled();

    await act(async () => {
      answer(false);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(window.location.pathname).toBe('/profile');
    expect(shown()).toBe('/profile');
    expect(asked).toHaveLength(1);

    await traverse(-1);
    expect(asked).toEqual(['/home', '/home']);
    await act(async () => {
      answer(true);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(window.location.pathname).toBe('/home');
    expect(shown()).toBe('/home');
    expect(moves).toHaveBeenCalledTimes(1);
    // Forward, back to the page still guarded: asked again, once.
    await traverse(1);
    expect(asked).toEqual(['/home', '/home', '/profile']);
    await act(async () => answer(false));
    expect(window.location.pathname).toBe('/home');
    window.removeEventListener('popstate', moves);
    off();
  });

  it('a guard that agrees at once lets Back through, with no loop', async () => {
    const guard = jest.fn(() => true);
    const off = addLeaveGuard(guard);
    render(<Shown />);
    await traverse(-1);
    expect(window.location.pathname).toBe('/home');
    expect(shown()).toBe('/home');
    expect(guard).toHaveBeenCalledTimes(1);
    off();
  });

  it('an entry of unknown place (another pushState made it) is asked about where it is; "Stay" puts the address back', async () => {
    window.history.replaceState(null, '', '/home');
    window.history.pushState({ portalIndex: 50 }, '', '/profile');
    navigate('/profile', { replace: true });
    let answer!: (go: boolean) => void;
    const off = addLeaveGuard(() => new Promise<boolean>((resolve) => (answer = resolve)));
    render(<Shown />);
    await traverse(-1);
    // Asked with the browser's address already moved; the page has not moved.
    expect(window.location.pathname).toBe('/home');
    expect(shown()).toBe('/profile');
    await act(async () => answer(false));
    expect(window.location.pathname).toBe('/profile');
    expect(shown()).toBe('/profile');

    await traverse(-1);
    await act(async () => answer(true));
    expect(window.location.pathname).toBe('/home');
    expect(shown()).toBe('/home');
    off();
  });

  it('a second Back while asking only comes back, asking nothing more', async () => {
    let answer!: (go: boolean) => void;
    const guard = jest.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const off = addLeaveGuard(guard);
    render(<Shown />);
    await traverse(-1);
    await traverse(-1);
    expect(guard).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/profile');
    await act(async () => {
      answer(true);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(shown()).toBe('/home');
    expect(guard).toHaveBeenCalledTimes(1);
    off();
  });

  it("an entry another pushState made gets its place from single-spa's event, and Back from it is held in place", async () => {
    window.history.pushState(null, '', '/size');
    const made = new PopStateEvent('popstate', { state: null });
    window.dispatchEvent(Object.assign(made, { singleSpa: true, singleSpaTrigger: 'pushState' }));
    let answer!: (go: boolean) => void;
    const off = addLeaveGuard(() => new Promise<boolean>((resolve) => (answer = resolve)));
    await traverse(-1);
    // Moved back to /size before asking: the address never showed /profile while asked.
    expect(window.location.pathname).toBe('/size');
    await act(async () => {
      answer(true);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(window.location.pathname).toBe('/profile');
    off();
  });
});
