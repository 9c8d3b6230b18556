import { describe, expect, it } from 'vitest';
import type { UnknownAction } from '@reduxjs/toolkit';
import { sessionEnded } from '../auth/index.ts';
import { fetchProductScripts, fetchTradingViewAccess, saveTradingViewUsername } from './api.ts';
import {
  initialTradingViewState,
  saveReset,
  tradingviewSlice,
  type TradingViewState,
} from './slice.ts';
import { accessOf, item } from './test-fixtures.ts';

const run = (s: TradingViewState, ...actions: UnknownAction[]) =>
  actions.reduce((x, a) => tradingviewSlice.reducer(x, a), s);

const scripts = [{ id: 'tvs_1', name: 'RSI', url: 'https://www.tradingview.com/script/x/' }];

describe('tradingview slice', () => {
  it('a save answers the access as the new name left it: access and account follow', () => {
    const before = run(
      initialTradingViewState,
      fetchTradingViewAccess.fulfilled(accessOf(null, item()), 'r1'),
    );
    expect(before.account.data).toEqual({ username: null, changedAt: null });
    const saved = accessOf('Chart_Wizard', item({ status: 'waiting', username: 'Chart_Wizard' }));
    const after = run(
      before,
      saveTradingViewUsername.pending('r2', 'Chart_Wizard'),
      saveTradingViewUsername.fulfilled(saved, 'r2', 'Chart_Wizard'),
    );
    expect(after.save.status).toBe('success');
    expect(after.access.data).toEqual(saved);
    expect(after.account.data?.username).toBe('Chart_Wizard');
  });

  it('keeps a failed save’s error until the form is edited', () => {
    const error = { error: 'Bad name.', code: 'validation_failed', fields: { username: 'Bad.' } };
    const failed = run(
      initialTradingViewState,
      saveTradingViewUsername.rejected(null, 'r1', 'x y', error),
    );
    expect(failed.save).toMatchObject({ status: 'failure', error });
    expect(run(failed, saveReset()).save.status).toBe('idle');
  });

  it('shows the scripts of the product asked last, never an older answer', () => {
    const s = run(
      initialTradingViewState,
      fetchProductScripts.pending('r1', 'prd_a'),
      fetchProductScripts.pending('r2', 'prd_b'),
      fetchProductScripts.fulfilled(scripts, 'r1', 'prd_a'),
    );
    expect(s.scripts).toMatchObject({ productId: 'prd_b', status: 'loading', data: null });
    const done = run(s, fetchProductScripts.fulfilled([], 'r2', 'prd_b'));
    expect(done.scripts).toMatchObject({ productId: 'prd_b', status: 'success', data: [] });
  });

  it('forgets the buyer’s name and access when the session ends, keeps the public scripts', () => {
    const s = run(
      initialTradingViewState,
      fetchTradingViewAccess.fulfilled(accessOf('Me_1', item()), 'r1'),
      fetchProductScripts.pending('r2', 'prd_a'),
      fetchProductScripts.fulfilled(scripts, 'r2', 'prd_a'),
      sessionEnded(),
    );
    expect(s.access.data).toBeNull();
    expect(s.account.data).toBeNull();
    expect(s.scripts.data).toEqual(scripts);
  });
});
