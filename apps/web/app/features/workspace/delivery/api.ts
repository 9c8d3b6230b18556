import { vendorEndpoints } from '@tradeshelf/contract/client';
import type {
  CommunityBinding,
  TradingViewTask,
  TradingViewTaskStatus,
  VendorCommunityProduct,
  VendorDiscordServer,
  VendorTradingViewProduct,
  VendorTradingViewScript,
} from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

// One thunk per call (docs/architecture.md#the-web-app); the delivery screens keep the answers (ADR 039).

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/* Discord */

export const fetchDiscordInstallUrl = requestThunk<void, string>(
  'vendor/discord/install',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorDiscordInstall, {})).url,
);

export interface ServerRef {
  id: string;
  name: string;
  iconUrl: string | null;
}

/**
 * Discord's return to the workspace after adding the bot: the API exchanges the code and records
 * the server Discord names (the redirect's `guild_id` is not proof, so it is not sent).
 */
export const completeDiscordInstall = requestThunk<{ state: string; code: string }, ServerRef>(
  'vendor/discord/installed',
  async (query, { api }) =>
    (await api.call(vendorEndpoints.vendorDiscordInstalled, { query })).server,
);

export const fetchDiscordServers = requestThunk<void, VendorDiscordServer[]>(
  'vendor/discord/servers',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorDiscordServers, {})).servers,
);

export interface ServerRoles {
  server: ServerRef;
  /** What the bot lacks for alert channels, said beside the roles. */
  notes: string[];
  roles: Array<{ id: string; name: string; problem: string | null }>;
}

export const fetchServerRoles = requestThunk<string, ServerRoles>(
  'vendor/discord/roles',
  (guildId, { api }) => api.call(vendorEndpoints.vendorDiscordRoles, { params: { id: guildId } }),
);

export interface PageArg {
  cursor?: string | undefined;
  limit?: number;
}

export interface TasksArg extends PageArg {
  status: TradingViewTaskStatus | 'all';
}

export const fetchCommunityProducts = requestThunk<PageArg, Page<VendorCommunityProduct>>(
  'vendor/discord/products',
  async ({ cursor, limit = 20 }, { api }) => {
    const res = await api.call(vendorEndpoints.vendorCommunityProducts, {
      query: { limit, cursor },
    });
    return { items: res.products, nextCursor: res.nextCursor };
  },
);

export const bindCommunity = requestThunk<
  { productId: string; guildId: string; roleIds: string[] },
  CommunityBinding
>(
  'vendor/discord/bind',
  async (body, { api }) => (await api.call(vendorEndpoints.vendorBindCommunity, { body })).binding,
);

export const unbindCommunity = requestThunk<string, string>(
  'vendor/discord/unbind',
  async (productId, { api }) =>
    (await api.call(vendorEndpoints.vendorUnbindCommunity, { params: { productId } })).productId,
);

/* TradingView */

export const fetchTradingViewTasks = requestThunk<TasksArg, Page<TradingViewTask>>(
  'vendor/tradingview/tasks',
  async ({ status, cursor, limit = 20 }, { api }) => {
    const res = await api.call(vendorEndpoints.vendorTradingViewTasks, {
      query: { status, limit, cursor },
    });
    return { items: res.tasks, nextCursor: res.nextCursor };
  },
);

export const completeTradingViewTask = requestThunk<
  { id: string; note?: string | undefined },
  TradingViewTask
>(
  'vendor/tradingview/complete',
  async ({ id, note }, { api }) =>
    (
      await api.call(vendorEndpoints.completeTradingViewTask, {
        params: { id },
        body: note ? { note } : {},
      })
    ).task,
);

export const fetchTradingViewScripts = requestThunk<void, VendorTradingViewScript[]>(
  'vendor/tradingview/scripts',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorTradingViewScripts, {})).scripts,
);

export const createTradingViewScript = requestThunk<
  { name: string; url: string },
  VendorTradingViewScript
>(
  'vendor/tradingview/createScript',
  async (body, { api }) =>
    (await api.call(vendorEndpoints.createTradingViewScript, { body })).script,
);

export const fetchTradingViewProducts = requestThunk<PageArg, Page<VendorTradingViewProduct>>(
  'vendor/tradingview/products',
  async ({ cursor, limit = 20 }, { api }) => {
    const res = await api.call(vendorEndpoints.vendorTradingViewProducts, {
      query: { limit, cursor },
    });
    return { items: res.products, nextCursor: res.nextCursor };
  },
);

export type ProductScripts = { id: string; scripts: VendorTradingViewProduct['scripts'] };

export const setProductScripts = requestThunk<
  { productId: string; scriptIds: string[] },
  ProductScripts
>(
  'vendor/tradingview/productScripts',
  async ({ productId, scriptIds }, { api }) =>
    (
      await api.call(vendorEndpoints.setProductTradingViewScripts, {
        params: { id: productId },
        body: { scriptIds },
      })
    ).product,
);
