// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import type { User } from '@tradeshelf/contract';
import { fetchProfile } from '../features/users/api.ts';
import { useServices } from '../lib/services.tsx';
import { renderWithApp } from '../test/render.tsx';
import { Header } from './header.tsx';

afterEach(cleanup);

const user = (roles: User['roles']): User => ({
  id: 'usr_test',
  email: 'buyer@example.com',
  username: 'pat_trades',
  emailVerified: true,
  roles,
  avatarUrl: null,
  avatar: null,
  createdAt: '2026-11-01T00:00:00.000Z',
});

function Shell() {
  const { session, api } = useServices();
  return <Header session={session} api={api} />;
}

async function renderAs(roles: User['roles']) {
  const app = renderWithApp(<Shell />, {
    signedIn: true,
    answer: (req) =>
      req.path === '/api/v1/user/profile'
        ? { status: 200, body: { user: user(roles) } }
        : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
  });
  await act(async () => {
    await app.store.dispatch(fetchProfile());
  });
  return app;
}

describe('Header', () => {
  it('links a signed-in vendor to the workspace, named for phones where only the icon shows', async () => {
    await renderAs(['buyer', 'vendor']);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    // The signed-in links load with the session (shell/member-nav.tsx).
    const link = await within(nav).findByRole('link', { name: 'Workspace' });
    expect(link.getAttribute('href')).toBe('/vendor');
    // Phones: the icon with its name for assistive tech; from `sm` up the word shows.
    expect(link.querySelector('svg')?.getAttribute('class')).toMatch(/\bsm:hidden\b/);
    expect(within(link).getByText('Workspace').className).toMatch(/\bmax-sm:sr-only\b/);
  });

  it('shows no workspace link to a buyer', async () => {
    await renderAs(['buyer']);
    expect(await screen.findByRole('link', { name: 'Library' })).toBeTruthy();
    expect(screen.queryByTestId('header-workspace')).toBeNull();
  });
});
