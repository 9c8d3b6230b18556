// @vitest-environment jsdom
import { discordMessages, type TradingViewTask } from '@tradeshelf/contract';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, type SeenRequest } from '../../../test/render.tsx';
import { DiscordSetup, INSTALL_CANCELLED, INSTALL_FAILED } from './discord.tsx';
import { leaveFor } from './navigation.ts';
import { TradingViewSetup } from './tradingview.tsx';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('./navigation.ts', () => ({ leaveFor: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.mocked(leaveFor).mockClear();
});

const ok = (body: unknown) => ({ status: 200, body });
const notFound = { status: 404, body: { error: 'Not found.', code: 'not_found' } };
const server = { id: '111', name: 'Uma Signals', iconUrl: null, addedAt: '2026-11-24T10:00:00Z' };
const product = {
  id: 'prd_vip',
  slug: 'vip',
  title: 'VIP Room',
  isActive: true,
  binding: null,
};
const roles = {
  server,
  notes: [],
  roles: [
    {
      id: '201',
      name: 'Gold',
      problem:
        "The role “Gold” sits above the bot's role: drag the Tradeshelf role above it in Server Settings → Roles.",
    },
    { id: '202', name: 'Silver', problem: null },
  ],
};

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function discord(url: string, answer: (req: SeenRequest) => { status: number; body: unknown }) {
  return renderWithApp(
    <Routes>
      <Route
        path="/vendor/delivery/discord"
        element={
          <>
            <DiscordSetup />
            <Where />
          </>
        }
      />
    </Routes>,
    { signedIn: true, strict: true, url, answer },
  );
}

describe('Discord set-up', () => {
  it('completes the install once on Discord’s return, drops the query and lists the server', async () => {
    let installed = false;
    const app = discord(
      '/vendor/delivery/discord?code=c&state=st-1&guild_id=111&permissions=8',
      (req) => {
        if (req.path === '/api/v1/vendor/discord/installed') {
          installed = true;
          return ok({ server });
        }
        if (req.path === '/api/v1/vendor/discord/servers')
          return ok({ servers: installed ? [server] : [] });
        if (req.path === '/api/v1/vendor/discord/products')
          return ok({ products: [product], nextCursor: null });
        return notFound;
      },
    );
    expect(await screen.findByText(/The bot is in Uma Signals/)).toBeTruthy();
    await screen.findByRole('button', { name: 'Show roles' });
    const calls = app.requests.filter((r) => r.path === '/api/v1/vendor/discord/installed');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query.get('state')).toBe('st-1');
    expect(calls[0]!.query.get('code')).toBe('c');
    // The redirect's server id is a hint anyone can edit: the API takes the server from Discord.
    expect(calls[0]!.query.get('guild_id')).toBeNull();
    // React Router commits a navigation in a transition: under load it lands after the toast.
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/vendor/delivery/discord'),
    );
  });

  it('says so when the vendor cancelled on Discord’s page', async () => {
    const app = discord('/vendor/delivery/discord?error=access_denied&state=st-2', (req) =>
      req.path === '/api/v1/vendor/discord/servers'
        ? ok({ servers: [] })
        : req.path === '/api/v1/vendor/discord/products'
          ? ok({ products: [], nextCursor: null })
          : notFound,
    );
    expect(await screen.findByText(INSTALL_CANCELLED)).toBeTruthy();
    expect(app.requests.some((r) => r.path === '/api/v1/vendor/discord/installed')).toBe(false);
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/vendor/delivery/discord'),
    );
  });

  it('shows why the API refused the return, and a link Discord refused', async () => {
    const app = discord('/vendor/delivery/discord?code=c&state=st-3&guild_id=111', (req) => {
      if (req.path === '/api/v1/vendor/discord/installed')
        return { status: 409, body: { error: discordMessages.serverTaken, code: 'conflict' } };
      if (req.path === '/api/v1/vendor/discord/servers') return ok({ servers: [] });
      if (req.path === '/api/v1/vendor/discord/products')
        return ok({ products: [], nextCursor: null });
      return notFound;
    });
    expect(await screen.findByText(discordMessages.serverTaken)).toBeTruthy();
    expect(app.requests.filter((r) => r.path === '/api/v1/vendor/discord/installed')).toHaveLength(
      1,
    );
    cleanup();

    const refused = discord('/vendor/delivery/discord?error=invalid_scope&state=st-4', (req) =>
      req.path === '/api/v1/vendor/discord/servers'
        ? ok({ servers: [] })
        : req.path === '/api/v1/vendor/discord/products'
          ? ok({ products: [], nextCursor: null })
          : notFound,
    );
    expect(await screen.findByText(INSTALL_FAILED)).toBeTruthy();
    expect(refused.requests.some((r) => r.path === '/api/v1/vendor/discord/installed')).toBe(false);
  });

  it('sends the vendor to the install link', async () => {
    discord('/vendor/delivery/discord', (req) => {
      if (req.path === '/api/v1/vendor/discord/install')
        return ok({ url: '/sandbox/discord/oauth2/authorize?x=1', expiresAt: server.addedAt });
      if (req.path === '/api/v1/vendor/discord/servers') return ok({ servers: [] });
      if (req.path === '/api/v1/vendor/discord/products')
        return ok({ products: [], nextCursor: null });
      return notFound;
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add the bot to a server' }));
    await waitFor(() =>
      expect(leaveFor).toHaveBeenCalledWith('/sandbox/discord/oauth2/authorize?x=1'),
    );
  });

  it('binds a product, showing the server’s refusal in words first', async () => {
    let refuse = true;
    const app = discord('/vendor/delivery/discord', (req) => {
      if (req.path === '/api/v1/vendor/discord/servers') return ok({ servers: [server] });
      if (req.path === '/api/v1/vendor/discord/products')
        return ok({ products: [product], nextCursor: null });
      if (req.path === '/api/v1/vendor/discord/servers/111/roles') return ok(roles);
      if (req.path === '/api/v1/vendor/discord/bindings' && req.method === 'PUT') {
        if (refuse)
          return { status: 422, body: { error: roles.roles[0]!.problem, code: 'business_rule' } };
        return ok({
          binding: { productId: product.id, server, roles: [{ id: '202', name: 'Silver' }] },
        });
      }
      return notFound;
    });
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Community product'), 'prd_vip');
    await user.selectOptions(screen.getByLabelText('Server'), '111');
    await user.click(await screen.findByRole('checkbox', { name: /Gold/ }));
    // The picker warns before the server is asked.
    expect(screen.getAllByText(/sits above the bot's role/).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Bind product' }));
    expect(await screen.findByText(/^Discord would refuse this: The role “Gold”/)).toBeTruthy();

    refuse = false;
    await user.click(screen.getByRole('checkbox', { name: /Gold/ }));
    await user.click(screen.getByRole('checkbox', { name: /Silver/ }));
    await user.click(screen.getByRole('button', { name: 'Bind product' }));
    expect(await screen.findByText('Bound to Silver in Uma Signals.')).toBeTruthy();
    const bind = app.requests.filter((r) => r.method === 'PUT').at(-1)!;
    expect(bind.body).toEqual({ productId: 'prd_vip', guildId: '111', roleIds: ['202'] });
  });

  it('asks before removing a binding, and Cancel leaves it', async () => {
    const bound = {
      ...product,
      binding: { productId: product.id, server, roles: [{ id: '202', name: 'Silver' }] },
    };
    let removed = false;
    const app = discord('/vendor/delivery/discord', (req) => {
      if (req.path === '/api/v1/vendor/discord/servers') return ok({ servers: [server] });
      if (req.path === '/api/v1/vendor/discord/products')
        return ok({ products: [removed ? product : bound], nextCursor: null });
      if (req.path === '/api/v1/vendor/discord/bindings/prd_vip' && req.method === 'DELETE') {
        removed = true;
        return ok({ productId: product.id });
      }
      return notFound;
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Remove/ }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(app.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: /^Remove/ }));
    await user.click(screen.getByRole('button', { name: 'Remove binding' }));
    expect(await screen.findByText(/Not bound: buyers wait/)).toBeTruthy();
  });
});

const tvTask = (over: Partial<TradingViewTask>): TradingViewTask => ({
  id: 'tvt_1',
  kind: 'revoke',
  status: 'pending',
  username: 'LateTrader',
  scripts: [{ id: 'tvs_1', name: 'RSI Core', url: 'https://www.tradingview.com/script/Ab12Cd34/' }],
  product: { id: 'prd_1', title: 'RSI Pro' },
  purchaseId: 'pur_1',
  expiresAt: null,
  reason: 'refunded',
  reasonText: 'The purchase was refunded',
  createdAt: new Date(Date.now() - 50 * 3_600_000).toISOString(),
  dueAt: new Date(Date.now() - 26 * 3_600_000).toISOString(),
  overdue: true,
  completedAt: null,
  note: null,
  ...over,
});

describe('TradingView queue', () => {
  it('highlights overdue tasks with how late they are, pages, and marks one done', async () => {
    const first = tvTask({});
    const second = tvTask({
      id: 'tvt_2',
      kind: 'grant',
      username: 'NewTrader',
      dueAt: null,
      overdue: false,
    });
    const app = renderWithApp(<TradingViewSetup />, {
      signedIn: true,
      answer: (req) => {
        if (req.path === '/api/v1/vendor/tradingview/tasks')
          return req.query.get('cursor')
            ? ok({ tasks: [second], nextCursor: null })
            : ok({ tasks: [first], nextCursor: 'c1' });
        if (req.path === '/api/v1/vendor/tradingview/tasks/tvt_1/complete')
          return ok({ task: { ...first, status: 'done', completedAt: new Date().toISOString() } });
        if (req.path === '/api/v1/vendor/tradingview/scripts') return ok({ scripts: [] });
        if (req.path === '/api/v1/vendor/tradingview/products')
          return ok({ products: [], nextCursor: null });
        return notFound;
      },
    });
    const row = (await screen.findByText('LateTrader')).closest('li')!;
    expect(within(row).getByText(/Overdue by 1 day 2 hours/)).toBeTruthy();
    expect(row.className).toMatch(/rose/);
    expect(screen.getByText(/1 revocation is overdue/)).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load more tasks' }));
    expect(await screen.findByText('NewTrader')).toBeTruthy();
    expect(app.requests.at(-1)!.query.get('cursor')).toBe('c1');

    await user.click(within(row).getByRole('button', { name: /Mark done/ }));
    await waitFor(() =>
      expect(within(row).queryByRole('button', { name: /Mark done/ })).toBeNull(),
    );
    expect(within(row).getByText(/^Done/)).toBeTruthy();
    expect(screen.getByText('NewTrader')).toBeTruthy();
    await act(async () => undefined);
  });
});
