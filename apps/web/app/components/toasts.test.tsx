// @vitest-environment jsdom
import { afterEach, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ToastProvider, useToast } from './toasts.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Saver() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast('Saved')}>
      Save
    </button>
  );
}

it('shows a toast for five seconds, and leaves no timer behind once it is gone', () => {
  vi.useFakeTimers();
  const { unmount } = render(
    <ToastProvider>
      <Saver />
    </ToastProvider>,
  );
  act(() => screen.getByRole('button', { name: 'Save' }).click());
  expect(screen.getByRole('status').textContent).toContain('Saved');
  act(() => vi.advanceTimersByTime(5000));
  expect(screen.getByRole('status').textContent).not.toContain('Saved');

  act(() => screen.getByRole('button', { name: 'Save' }).click());
  expect(vi.getTimerCount()).toBe(1);
  unmount();
  expect(vi.getTimerCount()).toBe(0);
});
