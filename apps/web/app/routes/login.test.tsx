// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as ReactRouter from 'react-router';
import { Route, Routes, useLocation } from 'react-router';
import { SESSION_STORE_DELAY_MS } from '../lib/session.ts';
import { renderWithApp, type SeenRequest } from '../test/render.tsx';
import Login from './login.tsx';
import { loginAnswer } from '../testing.ts';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

// The welcome prefetches the next page, which needs the framework's router; not under test here.
vi.mock('react-router', async (actual) => ({
  ...(await actual<typeof ReactRouter>()),
  PrefetchPageLinks: () => null,
}));

function Where() {
  const { pathname, search } = useLocation();
  return <p>at {pathname + search}</p>;
}

const api = (req: SeenRequest) =>
  req.path === '/auth/login'
    ? { status: 200, body: loginAnswer() }
    : { status: 404, body: { error: 'Not found.', code: 'not_found' } };

async function logInAt(url: string) {
  const ui = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  renderWithApp(
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { answer: api, url },
  );
  await ui.type(screen.getByLabelText('Email'), 'a@example.com');
  await ui.type(screen.getByLabelText('Password'), 'secret-password');
  await ui.click(screen.getByRole('button', { name: 'Log in' }));
  await screen.findByText(/Welcome back/);
  await act(async () => void vi.advanceTimersByTime(SESSION_STORE_DELAY_MS));
  return (await screen.findByText(/^at /)).textContent;
}

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('login page', () => {
  it('goes on to the page it came from', async () => {
    expect(await logInAt(`/login?next=${encodeURIComponent('/orders?x=1')}`)).toBe(
      'at /orders?x=1',
    );
  });

  // Issue 26: `next=/\evil.example/x` left the page on "Taking you to…" (a navigation error).
  it('goes to the account page when `next` is not a path of this site', async () => {
    expect(await logInAt('/login?next=/%5Cevil.example/x')).toBe('at /account');
  });
});
