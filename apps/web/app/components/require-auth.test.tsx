// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { sessionEnded } from '../features/auth/slice.ts';
import { renderWithApp } from '../test/render.tsx';
import { RequireAuth } from './require-auth.tsx';

afterEach(cleanup);

function Where() {
  const { pathname, search } = useLocation();
  return <p>at {pathname + search}</p>;
}

describe('RequireAuth', () => {
  it('sends a signed-out visitor to log in, and back to the same page with its query', () => {
    const { store } = renderWithApp(
      <Routes>
        <Route path="/login" element={<Where />} />
        <Route
          path="/discord-auth-callback"
          element={
            <RequireAuth>
              <p>secret</p>
            </RequireAuth>
          }
        />
      </Routes>,
      { url: '/discord-auth-callback?code=c1&state=s1' },
    );
    expect(screen.getByText('Loading your account…')).toBeTruthy();
    act(() => void store.dispatch(sessionEnded()));
    expect(screen.getByText(/^at /).textContent).toBe(
      `at /login?next=${encodeURIComponent('/discord-auth-callback?code=c1&state=s1')}`,
    );
  });
});
