// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { discordMessages } from '@tradeshelf/contract/client';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { DiscordCallbackPage } from '../../routes/discord-auth-callback.tsx';
import { CANCELLED_TEXT, LIBRARY_REDIRECT_MS } from './callback.tsx';
import { leaveFor } from './navigation.ts';
import { cleanUpAfterEach, community, link } from './test-fixtures.ts';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('./navigation.ts', () => ({ leaveFor: vi.fn() }));
cleanUpAfterEach();

const AUTHORIZE_URL = '/sandbox/discord/oauth2/authorize?state=fresh';
const profile = {
  user: {
    id: 'usr_test',
    email: 'buyer@example.com',
    username: 'rae_trades',
    avatarUrl: null,
    avatar: null,
    roles: ['buyer'],
    emailVerified: true,
    createdAt: '2026-11-01T00:00:00.000Z',
  },
};
const error = (status: number, message: string, code: string) => ({
  status,
  body: { error: message, code },
});

function setup(
  url: string,
  oauth: (req: SeenRequest) => Answer = () => ({
    status: 200,
    body: { discord: link({ globalName: 'Rae' }), communities: [community()] },
  }),
) {
  const app = renderWithApp(
    <Routes>
      <Route path="/discord-auth-callback" element={<DiscordCallbackPage />} />
      <Route path="/library" element={<p>The library</p>} />
    </Routes>,
    {
      signedIn: true,
      strict: true,
      url,
      answer: (req) => {
        if (req.path === '/api/v1/discord/oauth-response') return oauth(req);
        if (req.path === '/api/v1/user/profile') return { status: 200, body: profile };
        if (req.path === '/api/v1/discord/authorize')
          return { status: 200, body: { url: AUTHORIZE_URL, expiresAt: '2026-11-22T12:10:00Z' } };
        return error(404, 'Not found.', 'not_found');
      },
    },
  );
  const oauthCalls = () => app.requests.filter((r) => r.path === '/api/v1/discord/oauth-response');
  return { ...app, oauthCalls, ui: userEvent.setup() };
}

describe('/discord-auth-callback (docs/product.md#discord-sign-in)', () => {
  it('sends code, state and vendorUrl once (strict effects too), then says who is connected', async () => {
    let answer!: (a: { status: number; body: unknown }) => void;
    const { oauthCalls, requests, store } = setup(
      '/discord-auth-callback?code=c1&state=s1&vendorUrl=alpha-edge',
      () => new Promise((resolve) => (answer = resolve)),
    );
    expect(screen.getByRole('heading', { name: 'Connecting your Discord account…' })).toBeTruthy();
    expect(screen.getByText(/^Checking with Discord/).closest('[role="status"]')).toBeTruthy();
    await waitFor(() => expect(oauthCalls()).toHaveLength(1));
    expect(Object.fromEntries(oauthCalls()[0]!.query)).toEqual({
      code: 'c1',
      state: 's1',
      vendorUrl: 'alpha-edge',
    });
    expect(oauthCalls()[0]!.headers.get('authorization')).toBe('Bearer access-token');

    answer({
      status: 200,
      body: { discord: link({ globalName: 'Rae' }), communities: [community()] },
    });
    expect(await screen.findByRole('heading', { name: 'Discord connected as Rae' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your library now' }).getAttribute('href')).toBe(
      '/library',
    );
    // Linking fills an empty username on the server: the profile is read again.
    await waitFor(() => expect(store.getState().user.profile.data?.username).toBe('rae_trades'));
    expect(requests.filter((r) => r.path === '/api/v1/user/profile')).toHaveLength(1);
    expect(store.getState().user.discord.data?.username).toBe('rae_trades');
    expect(store.getState().discord.communities.data).toHaveLength(1);
    expect(oauthCalls()).toHaveLength(1);
  });

  it('opens the library by itself a moment after success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup('/discord-auth-callback?code=c1&state=s1');
    expect(await screen.findByRole('heading', { name: /^Discord connected as / })).toBeTruthy();
    expect(screen.queryByText('The library')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(LIBRARY_REDIRECT_MS));
    expect(screen.getByText('The library')).toBeTruthy();
  });

  it.each([
    ['an expired state', error(400, discordMessages.stateExpired, 'bad_request')],
    ['a used state', error(400, discordMessages.stateUsed, 'bad_request')],
    ['a forged state', error(400, discordMessages.stateInvalid, 'bad_request')],
    ['a code Discord refused', error(400, discordMessages.codeInvalid, 'bad_request')],
    ['an account linked elsewhere (409)', error(409, discordMessages.linkedElsewhere, 'conflict')],
    ['Discord down (503)', error(503, discordMessages.discordDown, 'service_unavailable')],
  ])('shows %s in the API’s words, with Try again', async (_, answer) => {
    const { oauthCalls, ui, requests } = setup(
      '/discord-auth-callback?code=c1&state=s1',
      () => answer,
    );
    expect(await screen.findByRole('heading', { name: 'Discord was not connected' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(answer.body.error);
    expect(oauthCalls()).toHaveLength(1);
    expect(requests.some((r) => r.path === '/api/v1/user/profile')).toBe(false);
    // Try again starts a new authorisation (a state is single use).
    await ui.click(screen.getByTestId('discord-try-again'));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(AUTHORIZE_URL));
    expect(screen.getByRole('link', { name: 'Go to your library' }).getAttribute('href')).toBe(
      '/library',
    );
  });

  it('Cancel on Discord’s page (error=access_denied): says so, sends nothing, offers Try again', async () => {
    const { oauthCalls, ui, requests } = setup(
      '/discord-auth-callback?error=access_denied&error_description=The+resource+owner+denied&state=s1',
    );
    expect(screen.getByRole('heading', { name: 'Discord was not connected' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(CANCELLED_TEXT);
    expect(oauthCalls()).toHaveLength(0);
    await ui.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(AUTHORIZE_URL));
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/discord/authorize']);
  });

  it('another error from Discord is shown with its description', () => {
    setup('/discord-auth-callback?error=invalid_scope&error_description=Unknown+scope');
    expect(screen.getByRole('alert').textContent).toBe(
      'Discord did not connect your account: Unknown scope.',
    );
  });

  it('a return without code or state is refused without asking the API', () => {
    const { oauthCalls } = setup('/discord-auth-callback?code=c1');
    expect(screen.getByRole('alert').textContent).toBe(discordMessages.stateInvalid);
    expect(oauthCalls()).toHaveLength(0);
    expect(screen.getByTestId('discord-try-again')).toBeTruthy();
  });
});
