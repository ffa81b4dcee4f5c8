// The leave guards (issue 24): a page with unsaved work is asked before a member's link leaves
// it; programmatic navigation is never held up.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Link, addLeaveGuard, navigate, requestNavigation } from '../router';

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
