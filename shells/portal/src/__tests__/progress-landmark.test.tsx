// The progress bar, when shown, is inside a landmark like all the page's content (axe's "region"
// rule): the Firefox journey's axe run met it outside one on /home (issue 27).
import { act, screen } from '@testing-library/react';
import { startProgress } from '@portal/runtime';
import { PROGRESS_DELAY_MS } from '../layout/Frame';
import { renderAt } from './setup';

it('shows the progress bar inside the main landmark', () => {
  jest.useFakeTimers();
  try {
    renderAt('/');
    let done: () => void = () => undefined;
    act(() => void (done = startProgress()));
    act(() => void jest.advanceTimersByTime(PROGRESS_DELAY_MS));
    const bar = screen.getByRole('progressbar', { name: 'Loading…' });
    expect(bar.closest('main, header, nav, footer, aside, [role="region"]')).toBe(screen.getByRole('main'));
    act(() => done());
  } finally {
    jest.useRealTimers();
  }
});
