// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Community } from '@tradeshelf/contract';
import Library from '../../routes/library.tsx';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { paid } from '../orders/test-fixtures.ts';
import { leaveFor } from './navigation.ts';
import { COMMUNITIES_POLL_INTERVAL_MS, COMMUNITIES_POLL_TIMEOUT_MS } from './poll.ts';
import { cleanUpAfterEach, community, health, link } from './test-fixtures.ts';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('./navigation.ts', () => ({ leaveFor: vi.fn() }));
cleanUpAfterEach();

const indicator = paid({
  id: 'pur_tool',
  entitlements: [
    {
      kind: 'access',
      productId: 'prd_tool',
      productTitle: 'Volume Weighted MACD',
      productSlug: 'volume-weighted-macd',
      status: 'active',
      endsAt: null,
    },
  ],
});
const room = paid({
  id: 'pur_room',
  item: { ...paid().item, id: 'prd_room', title: 'Alpha Traders Room' },
  entitlements: [
    { ...indicator.entitlements[0]!, productId: 'prd_room', productTitle: 'Alpha Traders Room' },
    {
      ...indicator.entitlements[0]!,
      kind: 'discord_role',
      productId: 'prd_room',
      productTitle: 'Alpha Traders Room',
    },
  ],
});

interface Api {
  discord?: unknown;
  communities?: () => Answer;
  purchases?: unknown[];
  other?: (req: SeenRequest) => Answer | undefined;
}

function setup(api: Api = {}) {
  const app = renderWithApp(<Library />, {
    signedIn: true,
    url: '/library',
    answer: (req) => {
      const other = api.other?.(req);
      if (other) return other;
      switch (req.path) {
        case '/api/v1/user/discord':
          return { status: 200, body: { discord: api.discord ?? null } };
        case '/api/v1/communities/user':
          return api.communities?.() ?? { status: 200, body: { communities: [] } };
        case '/api/v1/purchases/buyer/list':
          return { status: 200, body: { purchases: api.purchases ?? [], nextCursor: null } };
        case '/api/v1/discord/authorize':
          return {
            status: 200,
            body: {
              url: '/sandbox/discord/oauth2/authorize?s=1',
              expiresAt: '2026-11-22T12:10:00Z',
            },
          };
        default:
          return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
      }
    },
  });
  const calls = (path: string) => app.requests.filter((r) => r.path === path);
  const ui = userEvent.setup({
    advanceTimers: (ms) => {
      if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
    },
  });
  return { ...app, calls, ui };
}

const list =
  (...communities: Community[]) =>
  () => ({
    status: 200,
    body: { communities },
  });
const card = (name: string) =>
  screen
    .getAllByTestId('community-card')
    .find((el) => within(el).queryByRole('heading', { name }))!;

describe('/library', () => {
  it('a card per community, its health in words and the actions that health offers', async () => {
    const future = '2026-11-22T12:30:00.000Z';
    const { ui, requests } = setup({
      communities: list(
        community({ _id: 'e1', product: { id: 'p1', slug: 'one', title: 'Link me' } }),
        community({
          _id: 'e2',
          product: { id: 'p2', slug: 'two', title: 'Join me' },
          health: health('needs_join'),
          invite: { url: '/sandbox/discord/invite/abc', expiresAt: future },
        }),
        community({
          _id: 'e3',
          product: { id: 'p3', slug: 'three', title: 'Working' },
          health: health('active'),
          history: [
            { type: 'granted', detail: 'Role Alpha given.', at: '2026-11-22T12:01:00.000Z' },
            { type: 'needs_buyer', detail: 'Waiting for Discord.', at: '2026-11-22T12:00:00.000Z' },
          ],
        }),
        community({
          _id: 'e4',
          product: { id: 'p4', slug: 'four', title: 'Broken' },
          health: health('failing', {
            message: 'The bot’s role is below Alpha.',
            nextRetryAt: future,
          }),
        }),
        community({
          _id: 'e5',
          product: { id: 'p5', slug: 'five', title: 'Gone' },
          health: health('ended'),
        }),
      ),
    });
    await waitFor(() => expect(screen.getAllByTestId('community-card')).toHaveLength(5));
    expect(screen.getAllByTestId('community-card').map((c) => c.dataset.health)).toEqual([
      'needs_link',
      'needs_join',
      'active',
      'failing',
      'ended',
    ]);
    const linkMe = card('Link me');
    expect(within(linkMe).getByTestId('community-health').textContent).toMatch(
      /Connect Discord to get access\./,
    );
    expect(linkMe.textContent).toMatch(
      /Alpha Edge Labs · Discord server “Alpha Edge Labs Community”/,
    );
    expect(linkMe.textContent).toMatch(/Role: Alpha Traders Room/);
    expect(
      within(linkMe)
        .getByRole('link', { name: /View order/ })
        .getAttribute('href'),
    ).toBe('/orders/pur_1');

    const join = within(card('Join me')).getByTestId('community-join');
    expect(join.getAttribute('href')).toBe('/sandbox/discord/invite/abc');
    expect(join.getAttribute('target')).toBe('_blank');
    expect(join.getAttribute('rel')).toBe('noopener noreferrer');
    expect(join.textContent).toMatch(/opens in a new tab/);
    expect(within(card('Join me')).getByTestId('community-joined').textContent).toBe('I’ve joined');

    expect(within(card('Working')).getByTestId('community-reconnect').textContent).toBe(
      'Reconnect',
    );
    const broken = within(card('Broken'));
    expect(broken.getByTestId('community-reconnect').textContent).toBe('Retry now');
    expect(broken.getByTestId('community-health').textContent).toMatch(
      /Having trouble.*The bot’s role is below Alpha\. Next try: /,
    );
    expect(broken.getByTestId('community-health').querySelector('time')?.dateTime).toBe(future);
    expect(within(card('Gone')).getByTestId('community-health').textContent).toMatch(
      /Ended: the purchase was refunded\./,
    );
    expect(within(card('Gone')).queryByRole('button')).toBeNull();

    // History: a native disclosure (the keyboard opens it in browsers: e2e), closed until opened.
    const summary = within(card('Working')).getByText('History (2)');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    await ui.click(summary);
    await waitFor(() => expect(details.open).toBe(true));
    expect(
      within(details)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/Granted · Role Alpha given\./),
      expect.stringMatching(/Waiting for you · Waiting for Discord\./),
    ]);

    // One Connect Discord button on the screen (issue 27): the account panel's, not one per card.
    expect(within(linkMe).queryByRole('button')).toBeNull();
    expect(within(linkMe).getByTestId('community-health').textContent).toMatch(
      /^Discord not connected/,
    );
    expect(screen.getAllByRole('button', { name: /Connect Discord/ })).toHaveLength(1);
    await ui.click(screen.getByTestId('discord-connect'));
    await waitFor(() =>
      expect(leaveFor).toHaveBeenCalledWith('/sandbox/discord/oauth2/authorize?s=1'),
    );
    expect(requests.filter((r) => r.path === '/api/v1/discord/authorize')).toHaveLength(1);
  });

  it('“I’ve joined” re-checks the community and merges the answer into its card', async () => {
    const joining = community({
      _id: 'e2',
      health: health('needs_join'),
      invite: { url: '/sandbox/discord/invite/abc', expiresAt: '2026-11-22T12:30:00.000Z' },
    });
    let answer!: (a: { status: number; body: unknown }) => void;
    const { ui, calls } = setup({
      communities: list(
        joining,
        community({ _id: 'e9', product: { id: 'p9', slug: 'n', title: 'Other' } }),
      ),
      other: (req) =>
        req.method === 'PUT' ? new Promise((resolve) => (answer = resolve)) : undefined,
    });
    const button = await screen.findByTestId('community-joined');
    await ui.click(button);
    expect(calls('/api/v1/communities/reconnect-user/e2')).toHaveLength(1);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    const joined = { ...joining, health: health('active'), invite: null };
    // `community` is the old name, kept for older clients: the card must take `result`.
    answer({ status: 200, body: { result: joined, community: joining } });
    await waitFor(() =>
      expect(screen.getAllByTestId('community-card')[0]!.dataset.health).toBe('active'),
    );
    expect(screen.getAllByTestId('community-card')[1]!.dataset.health).toBe('needs_link');
    expect(screen.queryByTestId('community-joined')).toBeNull();
  });

  it('a failed reconnect says why on its card', async () => {
    const { ui } = setup({
      communities: list(community({ _id: 'e3', health: health('active') })),
      other: (req) =>
        req.method === 'PUT'
          ? {
              status: 503,
              body: { error: 'Discord is not answering.', code: 'service_unavailable' },
            }
          : undefined,
    });
    await ui.click(await screen.findByTestId('community-reconnect'));
    expect(
      (await within(screen.getByTestId('community-card')).findByRole('alert')).textContent,
    ).toBe('Discord is not answering.');
  });

  it('reads the communities again every 2 s while access is being given, and stops when it lands', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [health('granting'), health('granting'), health('active')];
    const { calls } = setup({
      communities: () => list(community({ health: answers.shift() ?? health('active') }))(),
    });
    await waitFor(() =>
      expect(screen.getByTestId('community-card').dataset.health).toBe('granting'),
    );
    expect(screen.getByText('Giving you access… this page updates by itself.')).toBeTruthy();
    const path = '/api/v1/communities/user';
    expect(calls(path)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_INTERVAL_MS));
    await waitFor(() => expect(calls(path)).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_INTERVAL_MS));
    await waitFor(() => expect(screen.getByTestId('community-card').dataset.health).toBe('active'));
    expect(calls(path)).toHaveLength(3);
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_INTERVAL_MS * 10));
    expect(calls(path)).toHaveLength(3);
  });

  it('stops waiting after a minute, and when the page closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, unmount } = setup({
      communities: list(community({ health: health('granting') })),
    });
    const path = '/api/v1/communities/user';
    await waitFor(() => expect(calls(path)).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_TIMEOUT_MS + 10_000));
    const made = calls(path).length;
    // The first read, then one every 2 s for a minute.
    expect(made).toBe(1 + COMMUNITIES_POLL_TIMEOUT_MS / COMMUNITIES_POLL_INTERVAL_MS);
    expect(screen.getByText(/This is taking longer than usual/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_TIMEOUT_MS));
    expect(calls(path)).toHaveLength(made);
    unmount();

    const again = setup({ communities: list(community({ health: health('granting') })) });
    await waitFor(() => expect(again.calls(path)).toHaveLength(1));
    again.unmount();
    await act(() => vi.advanceTimersByTimeAsync(COMMUNITIES_POLL_INTERVAL_MS * 5));
    expect(again.calls(path)).toHaveLength(1);
  });

  it('not linked: Connect Discord; linked: who, since when, and Unlink after a confirm step', async () => {
    const { ui, calls, store } = setup({
      discord: link({ globalName: 'Rae', linkedAt: '2026-11-20T09:00:00.000Z' }),
      communities: list(community({ health: health('active') })),
      other: (req) =>
        req.path === '/api/v1/discord/unlink'
          ? { status: 200, body: { discord: null } }
          : undefined,
    });
    const panel = await screen.findByTestId('discord-account');
    await waitFor(() =>
      expect(within(panel).getByTestId('discord-username').textContent).toBe('Rae@rae_trades'),
    );
    expect(panel.textContent).toMatch(/Linked Nov 20, 2026/);
    await ui.click(within(panel).getByTestId('discord-unlink'));
    const confirm = within(panel).getByRole('group', { name: 'Unlink rae_trades?' });
    expect(document.activeElement).toBe(confirm);
    expect(confirm.textContent).toMatch(/roles we gave this Discord account are removed/);
    expect(confirm.textContent).toMatch(/connect Discord again and your access comes back/);
    // Keep it linked closes the step and gives the focus back.
    await ui.click(within(confirm).getByRole('button', { name: 'Keep it linked' }));
    expect(document.activeElement).toBe(within(panel).getByTestId('discord-unlink'));
    expect(calls('/api/v1/discord/unlink')).toHaveLength(0);

    await ui.click(within(panel).getByTestId('discord-unlink'));
    const before = calls('/api/v1/communities/user').length;
    await ui.click(within(panel).getByTestId('discord-unlink-confirm'));
    await waitFor(() => expect(within(panel).getByTestId('discord-connect')).toBeTruthy());
    expect(calls('/api/v1/discord/unlink').map((r) => r.method)).toEqual(['POST']);
    expect(store.getState().user.discord.data).toBeNull();
    await waitFor(() => expect(calls('/api/v1/communities/user').length).toBe(before + 1));
    expect(document.activeElement).toBe(within(panel).getByTestId('discord-connect'));
  });

  it('lists the other purchases with a link to their order; community purchases are cards', async () => {
    setup({
      purchases: [room, indicator, paid({ id: 'pur_old', status: 'refunded', entitlements: [] })],
      communities: list(community({ purchaseId: 'pur_room' })),
    });
    const others = await screen.findByRole('list', { name: 'Other purchases' });
    expect(within(others).getAllByRole('listitem')).toHaveLength(1);
    expect(within(others).getByRole('heading').textContent).toBe('Volume Weighted MACD');
    expect(
      within(others)
        .getByRole('link', { name: /View order/ })
        .getAttribute('href'),
    ).toBe('/orders/pur_tool');
    expect(screen.getByRole('heading', { name: 'Your other purchases' })).toBeTruthy();
  });

  it('a course purchase opens its course in the player: “Open course” (issue 27)', async () => {
    const course = paid({
      id: 'pur_course',
      item: { ...paid().item, id: 'prd_course', title: 'Order Flow Masterclass' },
      entitlements: [
        {
          ...indicator.entitlements[0]!,
          productId: 'prd_course',
          productTitle: 'Order Flow Masterclass',
        },
        {
          ...indicator.entitlements[0]!,
          kind: 'course_enrolment',
          productId: 'prd_course',
          productTitle: 'Order Flow Masterclass',
        },
      ],
    });
    setup({ purchases: [course, indicator] });
    const others = await screen.findByRole('list', { name: 'Other purchases' });
    const [courseRow, toolRow] = within(others).getAllByRole('listitem');
    expect(
      within(courseRow!)
        .getByRole('link', { name: 'Open course Order Flow Masterclass' })
        .getAttribute('href'),
    ).toBe('/courses/prd_course');
    expect(within(toolRow!).queryByRole('link', { name: /Open course/ })).toBeNull();
  });

  it('nothing owned: “Nothing here yet” with a way to the marketplace', async () => {
    setup();
    const empty = await screen.findByTestId('library-empty');
    expect(empty.textContent).toMatch(/Nothing here yet/);
    expect(within(empty).getByRole('link').getAttribute('href')).toBe('/search');
    expect(screen.queryByRole('heading', { name: 'Communities' })).toBeNull();
  });

  it('a failed load says why, and Try again loads it', async () => {
    let down = true;
    const { ui } = setup({
      communities: () =>
        down
          ? { status: 503, body: { error: 'Service unavailable.', code: 'service_unavailable' } }
          : list(community())(),
    });
    expect(screen.getByText('Loading your communities…')).toBeTruthy();
    const alert = await screen.findByText(/Service unavailable\./);
    down = false;
    await ui.click(
      within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', {
        name: 'Try again',
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('community-card')).toHaveLength(1));
  });

  it('renders a hundred communities', async () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      community({ _id: `e${i}`, product: { id: `p${i}`, slug: `s${i}`, title: `Room ${i}` } }),
    );
    setup({ communities: list(...many) });
    await waitFor(() => expect(screen.getAllByTestId('community-card')).toHaveLength(100));
  });
});
