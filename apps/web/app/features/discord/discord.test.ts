import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { initialUserState, userSlice } from '../users/slice.ts';
import { signedInStore } from '../../testing.ts';
import {
  authorizeDiscord,
  completeDiscordAuth,
  fetchCommunities,
  fetchUserDiscord,
  reconnectCommunity,
  unlinkDiscord,
} from './api.ts';
import { leaveFor } from './navigation.ts';
import { awaitingAccess } from './poll.ts';
import {
  authorizeReset,
  discordSlice,
  initialDiscordState,
  mergeCommunity,
  type DiscordState,
} from './slice.ts';
import { community, health, link } from './test-fixtures.ts';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('./navigation.ts', () => ({ leaveFor: vi.fn() }));
afterEach(() => vi.mocked(leaveFor).mockClear());

const reduce = (s: DiscordState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => discordSlice.reducer(x, a), s);

const a = community({ _id: 'ent_a', purchaseId: 'pur_a' });
const b = community({ _id: 'ent_b', purchaseId: 'pur_b', health: health('granting') });
const c = community({ _id: 'ent_c', purchaseId: 'pur_c', health: health('active') });
const callback = { code: 'code-1', state: 'state-1' };
const linked = { discord: link(), communities: [a, b], receivedAt: 1_000 };

describe('discord group (docs/product.md#request-groups)', () => {
  it('starts idle: authorize, auth, unlink, communities, reconnect', () => {
    for (const g of ['authorize', 'auth', 'unlink', 'communities', 'reconnect'] as const)
      expect(initialDiscordState[g]).toMatchObject({ status: 'idle', data: null, error: null });
    expect(initialDiscordState.linkedAt).toBeNull();
  });

  it('communities: loading → success; polling keeps the cards while it asks again', () => {
    let s = reduce(initialDiscordState, fetchCommunities.pending('r'));
    expect(s.communities.status).toBe('loading');
    s = reduce(s, fetchCommunities.fulfilled([a, b], 'r'));
    expect(s.communities).toEqual({ status: 'success', data: [a, b], error: null });
    s = reduce(s, fetchCommunities.pending('r2'));
    expect(s.communities).toMatchObject({ status: 'loading', data: [a, b] });
    const down = { error: 'Service unavailable.', code: 'service_unavailable' };
    s = reduce(s, fetchCommunities.rejected(null, 'r3', undefined, down));
    expect(s.communities).toEqual({ status: 'failure', data: [a, b], error: down });
  });
});

describe('reconnect (docs/product.md#discord-group: the answer is merged into the community with its _id)', () => {
  it('merges into the matching entry only, in place, keeping the order', () => {
    let s = reduce(initialDiscordState, fetchCommunities.fulfilled([a, b, c], 'r'));
    s = reduce(s, reconnectCommunity.pending('q', 'ent_b'));
    expect(s.reconnect).toMatchObject({ status: 'loading', id: 'ent_b' });
    const answer = {
      ...b,
      health: health('active'),
      lastCheckedAt: '2026-11-22T12:05:00.000Z',
      history: [
        { type: 'granted' as const, detail: 'Role given.', at: '2026-11-22T12:05:00.000Z' },
      ],
    };
    s = reduce(s, reconnectCommunity.fulfilled(answer, 'q', 'ent_b'));
    expect(s.reconnect).toMatchObject({ status: 'success', id: 'ent_b', data: answer });
    expect(s.communities.data!.map((x) => x._id)).toEqual(['ent_a', 'ent_b', 'ent_c']);
    expect(s.communities.data![1]).toEqual(answer);
    expect(s.communities.data![0]).toEqual(a);
    expect(s.communities.data![2]).toEqual(c);
  });

  it('keeps what the answer does not carry (a merge, not a replacement)', () => {
    const partial = { _id: 'ent_a', health: health('active') } as typeof a;
    const merged = mergeCommunity([a, b], partial);
    expect(merged[0]).toEqual({ ...a, health: health('active') });
    expect(merged[1]).toBe(b);
    // A community the list has not seen yet is added; no list yet starts one.
    expect(mergeCommunity([a], c).map((x) => x._id)).toEqual(['ent_a', 'ent_c']);
    expect(mergeCommunity(null, c)).toEqual([c]);
  });

  it('a failure is stored with the card it belongs to; the list is untouched', () => {
    const err = { error: 'Community not found.', code: 'not_found' };
    const s = reduce(
      initialDiscordState,
      fetchCommunities.fulfilled([a, b], 'r'),
      reconnectCommunity.pending('q', 'ent_a'),
      reconnectCommunity.rejected(null, 'q', 'ent_a', err),
    );
    expect(s.reconnect).toEqual({ status: 'failure', data: null, error: err, id: 'ent_a' });
    expect(s.communities.data).toEqual([a, b]);
  });
});

describe('linking and unlinking', () => {
  it('auth remembers the state it sent; the answer brings the communities and the link time', () => {
    let s = reduce(initialDiscordState, completeDiscordAuth.pending('r', callback));
    expect(s.auth).toMatchObject({ status: 'loading', state: 'state-1' });
    s = reduce(s, completeDiscordAuth.fulfilled(linked, 'r', callback));
    expect(s.auth).toMatchObject({ status: 'success', data: linked, state: 'state-1' });
    expect(s.communities).toEqual({ status: 'success', data: [a, b], error: null });
    expect(s.linkedAt).toBe(1_000);
    const err = { error: 'This sign-in link was already used.', code: 'bad_request' };
    const failed = reduce(
      initialDiscordState,
      completeDiscordAuth.pending('r', callback),
      completeDiscordAuth.rejected(null, 'r', callback, err),
    );
    expect(failed.auth).toEqual({ status: 'failure', data: null, error: err, state: 'state-1' });
  });

  it('the user group holds the linked account (docs/product.md#request-groups: user.discord)', () => {
    const u = (...actions: Array<{ type: string; payload?: unknown }>) =>
      actions.reduce((x, act) => userSlice.reducer(x, act), initialUserState);
    expect(u(fetchUserDiscord.pending('r')).discord.status).toBe('loading');
    expect(u(fetchUserDiscord.fulfilled(null, 'r')).discord).toEqual({
      status: 'success',
      data: null,
      error: null,
    });
    expect(u(completeDiscordAuth.fulfilled(linked, 'r', callback)).discord.data).toEqual(link());
    expect(
      u(fetchUserDiscord.fulfilled(link(), 'r'), unlinkDiscord.fulfilled(null, 'r')).discord,
    ).toEqual({ status: 'success', data: null, error: null });
  });

  it('unlink: loading → success, the link time forgotten; failure keeps the error', () => {
    let s = reduce(initialDiscordState, completeDiscordAuth.fulfilled(linked, 'r', callback));
    s = reduce(s, unlinkDiscord.pending('u'));
    expect(s.unlink.status).toBe('loading');
    s = reduce(s, unlinkDiscord.fulfilled(null, 'u'));
    expect(s.unlink.status).toBe('success');
    expect(s.linkedAt).toBeNull();
    const err = { error: 'No Discord account is linked.', code: 'not_found' };
    expect(reduce(s, unlinkDiscord.rejected(null, 'u2', undefined, err)).unlink).toMatchObject({
      status: 'failure',
      error: err,
    });
  });

  it('authorize: loading → success; coming back from the page cache resets it', () => {
    let s = reduce(initialDiscordState, authorizeDiscord.pending('r', undefined));
    expect(s.authorize.status).toBe('loading');
    s = reduce(s, authorizeDiscord.fulfilled({ url: '/x' }, 'r', undefined));
    expect(s.authorize.status).toBe('success');
    expect(reduce(s, authorizeReset()).authorize).toEqual(initialDiscordState.authorize);
  });

  it('logging out forgets everything', () => {
    const s = reduce(
      initialDiscordState,
      completeDiscordAuth.fulfilled(linked, 'r', callback),
      sessionEnded(),
    );
    expect(s).toEqual(initialDiscordState);
  });
});

describe('waiting for access', () => {
  it('waits while a grant is on its way, or a card still asks to connect right after linking', () => {
    expect(awaitingAccess(null, true)).toBe(false);
    expect(awaitingAccess([a, c], false)).toBe(false);
    expect(awaitingAccess([a, c], true)).toBe(true);
    expect(awaitingAccess([b, c], false)).toBe(true);
    expect(awaitingAccess([c, community({ health: health('failing') })], true)).toBe(false);
  });
});

describe('discord thunks through the typed client', () => {
  function setup(reply: (url: URL, init: RequestInit) => unknown) {
    const requests: Array<{ method: string; url: URL; auth: string | null }> = [];
    const made = signedInStore((url, init) => {
      requests.push({
        method: init.method ?? 'GET',
        url,
        auth: (init.headers as Record<string, string>).authorization ?? null,
      });
      return new Response(JSON.stringify(reply(url, init)), { status: 200 });
    });
    return { ...made, requests };
  }

  it('calls the contract paths with the bearer token', async () => {
    const { store, requests } = setup((url) => {
      switch (url.pathname) {
        case '/api/v1/user/discord':
          return { discord: link() };
        case '/api/v1/communities/user':
          return { communities: [a, b] };
        case '/api/v1/communities/reconnect-user/ent_b':
          // docs/product.md#calls: the client reads `result`; `community` is the same for older clients.
          return { result: { ...b, health: health('active') }, community: b };
        case '/api/v1/discord/unlink':
          return { discord: null };
        default:
          return { discord: link(), communities: [a] };
      }
    });
    await store.dispatch(fetchUserDiscord());
    await store.dispatch(fetchCommunities());
    await store.dispatch(reconnectCommunity('ent_b'));
    await store.dispatch(completeDiscordAuth({ ...callback, vendorUrl: 'alpha-edge' }));
    expect(store.getState().discord.linkedAt).toEqual(expect.any(Number));
    await store.dispatch(unlinkDiscord());
    expect(requests.map((r) => [r.method, r.url.pathname, r.auth])).toEqual([
      ['GET', '/api/v1/user/discord', 'Bearer access-1'],
      ['GET', '/api/v1/communities/user', 'Bearer access-1'],
      ['PUT', '/api/v1/communities/reconnect-user/ent_b', 'Bearer access-1'],
      ['GET', '/api/v1/discord/oauth-response', 'Bearer access-1'],
      ['POST', '/api/v1/discord/unlink', 'Bearer access-1'],
    ]);
    expect(Object.fromEntries(requests[3]!.url.searchParams)).toEqual({
      code: 'code-1',
      state: 'state-1',
      vendorUrl: 'alpha-edge',
    });
    const state = store.getState();
    expect(state.user.discord.data).toBeNull();
    expect(state.discord.communities.data!.map((x) => x._id)).toEqual(['ent_a']);
    expect(state.discord.linkedAt).toBeNull();
  });

  it('authorize asks for the page and sends the browser there', async () => {
    const url = '/sandbox/discord/oauth2/authorize?state=s';
    const { store, requests } = setup(() => ({ url, expiresAt: '2026-11-22T12:10:00.000Z' }));
    await store.dispatch(authorizeDiscord({ vendorUrl: 'alpha-edge' }));
    expect(requests[0]!.url.pathname).toBe('/api/v1/discord/authorize');
    expect(requests[0]!.url.searchParams.get('vendorUrl')).toBe('alpha-edge');
    expect(leaveFor).toHaveBeenCalledWith(url);
    expect(store.getState().discord.authorize.status).toBe('success');
  });
});
