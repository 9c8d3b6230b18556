// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { leaveFor } from '../features/discord/navigation.ts';
import { renderWithApp, type Answer } from '../test/render.tsx';
import { UsernamePrompt } from './username-dialog.tsx';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('../features/discord/navigation.ts', () => ({ leaveFor: vi.fn() }));

afterEach(cleanup);

const user = (username: string) => ({
  user: {
    id: 'usr_test',
    email: 'buyer@example.com',
    username,
    avatarUrl: null,
    roles: ['buyer'],
    emailVerified: true,
    createdAt: '2026-11-01T00:00:00.000Z',
  },
});

const AUTHORIZE_URL = '/sandbox/discord/oauth2/authorize?client_id=1&state=s1';

function setup(answer?: (body: unknown) => Answer) {
  const onLogout = vi.fn();
  const app = renderWithApp(<UsernamePrompt onLogout={onLogout} />, {
    signedIn: true,
    answer: (req) =>
      req.method === 'PUT' && req.path === '/api/v1/user/profile'
        ? (answer?.(req.body) ?? {
            status: 200,
            body: user((req.body as { username: string }).username),
          })
        : req.method === 'GET' && req.path === '/api/v1/discord/authorize'
          ? { status: 200, body: { url: AUTHORIZE_URL, expiresAt: '2026-11-22T12:10:00.000Z' } }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
  });
  return { ...app, onLogout, ui: userEvent.setup() };
}

describe('username prompt (docs/product.md#username-prompt)', () => {
  it('is a modal drawer with the spec’s title, the input focused, Save disabled while empty', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Action Required! Update Your Username' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const input = screen.getByPlaceholderText('Enter your username');
    expect(document.activeElement).toBe(input);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);
  });

  it('checks the length rule before asking the server', async () => {
    const { ui, requests } = setup();
    await ui.type(screen.getByPlaceholderText('Enter your username'), 'abc');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toMatch(/4/);
    expect(requests).toHaveLength(0);
    // Editing clears the message.
    await ui.type(screen.getByPlaceholderText('Enter your username'), 'd');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('saves the trimmed name, busy while the server answers, into the profile', async () => {
    let answer!: (a: { status: number; body: unknown }) => void;
    const { ui, requests, store } = setup(() => new Promise((resolve) => (answer = resolve)));
    await ui.type(screen.getByPlaceholderText('Enter your username'), '  trader_joe ');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    await waitFor(() => expect(save.disabled).toBe(true));
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect(requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', '/api/v1/user/profile', { username: 'trader_joe' }],
    ]);
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer access-token');
    answer({ status: 200, body: user('trader_joe') });
    await waitFor(() => expect(store.getState().user.profile.data?.username).toBe('trader_joe'));
    expect(store.getState().user.updateProfile.message).toBe('Username updated successfully');
  });

  it('shows the server’s message until the name is edited', async () => {
    const { ui } = setup(() => ({
      status: 409,
      body: { error: 'That username is taken.', code: 'conflict' },
    }));
    const input = screen.getByPlaceholderText('Enter your username');
    await ui.type(input, 'taken_name');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That username is taken.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await ui.type(input, 'x');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps Tab inside the drawer, ignores Escape, and offers Log out', async () => {
    const { ui, onLogout } = setup();
    const input = screen.getByPlaceholderText('Enter your username');
    await ui.type(input, 'trader_joe');
    await ui.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    await ui.tab();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Connect Discord instead' }),
    );
    await ui.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Log out' }));
    await ui.tab();
    expect(document.activeElement).toBe(input);
    await ui.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('offers the Discord sign-in instead: the API’s authorise page, busy while the browser goes', async () => {
    const { ui, requests } = setup();
    await ui.click(screen.getByRole('button', { name: 'Connect Discord instead' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(AUTHORIZE_URL));
    expect(requests.map((r) => [r.method, r.path])).toEqual([['GET', '/api/v1/discord/authorize']]);
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer access-token');
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Connect Discord instead' }).disabled,
    ).toBe(true);
  });
});
