import { addToast, toastStore } from '../index';
import { visibleToasts } from '../toasts';

describe('toasts', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    toastStore.set({ toasts: [] });
  });
  afterEach(() => jest.useRealTimers());

  it('shows at most three, newest first', () => {
    ['a', 'b', 'c', 'd'].forEach((title) => addToast({ title }));
    expect(visibleToasts().map((t) => t.title)).toEqual(['d', 'c', 'b']);
  });

  it('marks out after 2000 ms by default and deletes 300 ms later', () => {
    const id = addToast({ title: 'hi' });
    jest.advanceTimersByTime(1999);
    expect(toastStore.get().toasts.find((t) => t.id === id)?.out).toBe(false);
    jest.advanceTimersByTime(1);
    expect(toastStore.get().toasts.find((t) => t.id === id)?.out).toBe(true);
    jest.advanceTimersByTime(299);
    expect(toastStore.get().toasts.some((t) => t.id === id)).toBe(true);
    jest.advanceTimersByTime(1);
    expect(toastStore.get().toasts.some((t) => t.id === id)).toBe(false);
  });

  it('honours a custom timeout and keeps infinite toasts', () => {
    const short = addToast({ title: 's', timeout: 500 });
    const forever = addToast({ title: 'f', infinite: true });
    jest.advanceTimersByTime(10_000);
    const ids = toastStore.get().toasts.map((t) => t.id);
    expect(ids).not.toContain(short);
    expect(ids).toContain(forever);
  });
});
