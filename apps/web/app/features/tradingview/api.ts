import { tradingviewEndpoints } from '@tradeshelf/contract/client';
import type {
  TradingViewAccessResponse,
  TradingViewAccount,
  TradingViewScript,
} from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

/** The buyer's products that deliver TradingView scripts, each with where access stands. */
export const fetchTradingViewAccess = requestThunk<void, TradingViewAccessResponse>(
  'tradingview/access',
  async (_, { api }) => api.call(tradingviewEndpoints.userTradingViewAccess, {}),
);

/** The username the buyer gave (null until given). */
export const fetchTradingViewAccount = requestThunk<void, TradingViewAccount>(
  'tradingview/account',
  async (_, { api }) => (await api.call(tradingviewEndpoints.userTradingView, {})).tradingview,
);

/** Saves the username; the answer is the access as it now stands (a new name moves the grants). */
export const saveTradingViewUsername = requestThunk<string, TradingViewAccessResponse>(
  'tradingview/save',
  async (username, { api }) =>
    api.call(tradingviewEndpoints.setTradingViewUsername, { body: { username } }),
);

/** What a product delivers on TradingView (none for most). */
export const fetchProductScripts = requestThunk<string, TradingViewScript[]>(
  'tradingview/productScripts',
  async (id, { api }) =>
    (await api.call(tradingviewEndpoints.productTradingViewScripts, { params: { id } })).scripts,
);
