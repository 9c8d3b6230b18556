import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { hydrate } from '../../lib/hydrate.ts';
import { signedInStore } from '../../testing.ts';
import { fetchPurchaseDetails, fetchPurchaseList, fetchPurchaseStatus } from './api.ts';
import { POLL_INTERVAL_MS, POLL_TIMEOUT_MS, pollPurchase, type PollOutcome } from './poll.ts';
import { initialOrderState, isFinal, orderSlice, type OrderState } from './slice.ts';
import { paid, purchase } from './test-fixtures.ts';

const reduce = (s: OrderState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => orderSlice.reducer(x, a), s);

const notFound = { error: 'We could not find that order.', code: 'not_found' };

describe('order group (docs/product.md#order-group)', () => {
  it('starts idle: status, details, list', () => {
    expect(initialOrderState).toEqual({
      status: { status: 'idle', data: null, error: null },
      details: { status: 'idle', data: null, error: null },
      list: { status: 'idle', data: null, error: null },
    });
  });

  it('status: loading → success; polling keeps the last answer while loading', () => {
    let s = reduce(initialOrderState, fetchPurchaseStatus.pending('r', 'cs_1'));
    expect(s.status.status).toBe('loading');
    s = reduce(s, fetchPurchaseStatus.fulfilled(purchase(), 'r', 'cs_1'));
    expect(s.status).toEqual({ status: 'success', data: purchase(), error: null });
    s = reduce(s, fetchPurchaseStatus.pending('r2', 'cs_1'));
    expect(s.status.status).toBe('loading');
    expect(s.status.data?.status).toBe('pending');
    s = reduce(s, fetchPurchaseStatus.fulfilled(paid(), 'r2', 'cs_1'));
    expect(s.status.data?.status).toBe('paid');
  });

  it('status of another session starts from nothing', () => {
    const s = reduce(
      initialOrderState,
      fetchPurchaseStatus.fulfilled(purchase(), 'r', 'cs_1'),
      fetchPurchaseStatus.pending('r2', 'cs_2'),
    );
    expect(s.status.data).toBeNull();
  });

  it('failures store the whole error (docs/product.md#request-states)', () => {
    const s = reduce(
      initialOrderState,
      fetchPurchaseStatus.rejected(null, 'r', 'cs_x', notFound),
      fetchPurchaseDetails.rejected(null, 'r', 'pur_x', notFound),
      fetchPurchaseList.rejected(null, 'r', undefined, notFound),
    );
    for (const g of [s.status, s.details, s.list])
      expect(g).toEqual({ status: 'failure', data: null, error: notFound });
  });

  it('details: a different order clears the old one while loading', () => {
    let s = reduce(initialOrderState, fetchPurchaseDetails.fulfilled(paid(), 'r', 'pur_1'));
    s = reduce(s, fetchPurchaseDetails.pending('r2', 'pur_1'));
    expect(s.details.data?.id).toBe('pur_1');
    s = reduce(s, fetchPurchaseDetails.pending('r3', 'pur_2'));
    expect(s.details.data).toBeNull();
  });

  it('list: the first page replaces, "Load more" appends without duplicates', () => {
    const a = paid({ id: 'a' });
    const b = paid({ id: 'b' });
    const c = paid({ id: 'c' });
    let s = reduce(
      initialOrderState,
      fetchPurchaseList.pending('r', undefined),
      fetchPurchaseList.fulfilled({ purchases: [a, b], nextCursor: 'cur1' }, 'r', undefined),
    );
    expect(s.list.data).toEqual({ purchases: [a, b], nextCursor: 'cur1' });
    s = reduce(s, fetchPurchaseList.pending('r2', { cursor: 'cur1' }));
    expect(s.list.status).toBe('loading');
    expect(s.list.data?.purchases).toHaveLength(2);
    s = reduce(
      s,
      fetchPurchaseList.fulfilled({ purchases: [b, c], nextCursor: null }, 'r2', {
        cursor: 'cur1',
      }),
    );
    expect(s.list.data).toEqual({ purchases: [a, b, c], nextCursor: null });
    // Reloading the first page starts the list again.
    s = reduce(s, fetchPurchaseList.fulfilled({ purchases: [c], nextCursor: 'x' }, 'r3', {}));
    expect(s.list.data).toEqual({ purchases: [c], nextCursor: 'x' });
  });

  it('a fresher status or details answer updates the order in the list', () => {
    const s = reduce(
      initialOrderState,
      fetchPurchaseList.fulfilled(
        { purchases: [purchase(), purchase({ id: 'pur_2' })], nextCursor: null },
        'r',
        undefined,
      ),
      fetchPurchaseStatus.fulfilled(paid(), 'r', 'cs_1'),
    );
    expect(s.list.data?.purchases.map((p) => p.status)).toEqual(['paid', 'pending']);
    const refunded = reduce(
      s,
      fetchPurchaseDetails.fulfilled(paid({ status: 'refunded' }), 'r', 'pur_1'),
    );
    expect(refunded.list.data?.purchases[0]!.status).toBe('refunded');
  });

  it('logging out forgets the orders; hydrate merges server state', () => {
    const s = reduce(
      initialOrderState,
      fetchPurchaseDetails.fulfilled(paid(), 'r', 'pur_1'),
      sessionEnded(),
    );
    expect(s).toEqual(initialOrderState);
    const h = reduce(
      initialOrderState,
      hydrate({ order: { details: { status: 'success', data: paid() } } }),
    );
    expect(h.details.status).toBe('success');
    expect(h.list.status).toBe('idle');
  });

  it('final statuses are everything but pending', () => {
    expect(
      (['pending', 'paid', 'failed', 'cancelled', 'refunded'] as const).map((status) =>
        isFinal({ status }),
      ),
    ).toEqual([false, true, true, true, true]);
  });
});

describe('return-page polling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks at once, then every 1.5 s, and stops at a final status', async () => {
    const answers: PollOutcome[] = ['pending', 'pending', 'done'];
    const check = vi.fn(async () => answers.shift() ?? 'pending');
    const onTimeout = vi.fn();
    pollPurchase({ check, onTimeout });
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 10);
    expect(check).toHaveBeenCalledTimes(3);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('gives up after two minutes of pending', async () => {
    const check = vi.fn(async (): Promise<PollOutcome> => 'pending');
    const onTimeout = vi.fn();
    pollPurchase({ check, onTimeout });
    await vi.advanceTimersByTimeAsync(POLL_TIMEOUT_MS - 1);
    expect(onTimeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    const calls = check.mock.calls.length;
    expect(calls).toBe(POLL_TIMEOUT_MS / POLL_INTERVAL_MS + 1);
    await vi.advanceTimersByTimeAsync(POLL_TIMEOUT_MS);
    expect(check).toHaveBeenCalledTimes(calls);
  });

  it('waits for each answer before scheduling the next, and cancel stops it', async () => {
    let release!: (o: PollOutcome) => void;
    const check = vi.fn(() => new Promise<PollOutcome>((r) => (release = r)));
    const cancel = pollPurchase({ check, onTimeout: vi.fn() });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(check).toHaveBeenCalledTimes(1);
    release('pending');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(2);
    cancel();
    release('pending');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(check).toHaveBeenCalledTimes(2);
  });
});

describe('order thunks through the typed client', () => {
  function setup(reply: unknown) {
    const requests: Array<{ url: URL; auth: string | null }> = [];
    const made = signedInStore((url, init) => {
      requests.push({
        url,
        auth: (init.headers as Record<string, string>).authorization ?? null,
      });
      return new Response(JSON.stringify(reply), { status: 200 });
    });
    return { ...made, requests };
  }

  it('status, details and list call their contract paths with the bearer token', async () => {
    const one = setup({ purchase: paid() });
    await one.store.dispatch(fetchPurchaseStatus('cs_1'));
    await one.store.dispatch(fetchPurchaseDetails('pur_1'));
    expect(one.requests.map((r) => [r.url.pathname, r.auth])).toEqual([
      ['/api/v1/purchase/session/cs_1', 'Bearer access-1'],
      ['/api/v1/purchases/buyer/pur_1', 'Bearer access-1'],
    ]);
    expect(one.store.getState().order.details.data?.receiptNumber).toBe('R-0001');
    expect(one.store.getState().order.status.data?.status).toBe('paid');

    const list = setup({ purchases: [paid()], nextCursor: null });
    await list.store.dispatch(fetchPurchaseList({ cursor: 'abc' }));
    expect(list.requests[0]!.url.pathname).toBe('/api/v1/purchases/buyer/list');
    expect(Object.fromEntries(list.requests[0]!.url.searchParams)).toEqual({
      limit: '20',
      cursor: 'abc',
    });
  });
});
