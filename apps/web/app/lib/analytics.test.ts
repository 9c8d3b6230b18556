import { ANALYTICS_BATCH_MAX, analyticsRoutes, type AnalyticsEvent } from '@tradeshelf/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Analytics, ANON_KEY, FLUSH_MS } from './analytics.ts';
import { memoryStorage } from './session.ts';

function setup(storage = memoryStorage()) {
  const batches: Array<{ events: AnalyticsEvent[]; leaving: boolean }> = [];
  const analytics = new Analytics({
    storage,
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    newId: () => 'anon-00000001',
    send: (events, leaving) => {
      batches.push({ events, leaving });
      return Promise.resolve();
    },
  });
  return { analytics, batches, storage };
}

const bodySchema = analyticsRoutes.track.body!;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12));
});
afterEach(() => vi.useRealTimers());

describe('analytics (docs/product.md#analytics)', () => {
  it('keeps one anonymous id per browser', () => {
    const storage = memoryStorage();
    expect(setup(storage).analytics.anonymousId).toBe('anon-00000001');
    storage.setItem(ANON_KEY, 'kept-anon-id');
    expect(setup(storage).analytics.anonymousId).toBe('kept-anon-id');
  });

  it('batches page views and sends them after the flush interval, in the contract shape', () => {
    const { analytics, batches } = setup();
    analytics.pageView('/', 'Tradeshelf', 'https://ref.example/');
    analytics.pageView('/search?q=rsi', 'Search');
    vi.advanceTimersByTime(FLUSH_MS - 1);
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.leaving).toBe(false);
    expect(batches[0]!.events.map((e) => e.type)).toEqual(['page_view', 'page_view']);
    expect(bodySchema.safeParse({ events: batches[0]!.events }).success).toBe(true);
    expect(batches[0]!.events[0]).toMatchObject({
      path: '/',
      title: 'Tradeshelf',
      referrer: 'https://ref.example/',
      occurredAt: '2026-11-22T12:00:00.000Z',
    });
  });

  it('identifies a user once per user id', () => {
    const { analytics, batches } = setup();
    analytics.identify('usr_1');
    analytics.identify('usr_1');
    analytics.identify('usr_2');
    vi.advanceTimersByTime(FLUSH_MS);
    const events = batches.flatMap((b) => b.events);
    expect(events.map((e) => e.type === 'identify' && e.userId)).toEqual(['usr_1', 'usr_2']);
    expect(bodySchema.safeParse({ events }).success).toBe(true);
  });

  it('never sends more than the batch maximum in one request', () => {
    const { analytics, batches } = setup();
    for (let i = 0; i < ANALYTICS_BATCH_MAX + 5; i++) analytics.pageView(`/p/${i}`);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.events).toHaveLength(ANALYTICS_BATCH_MAX);
    vi.advanceTimersByTime(FLUSH_MS);
    expect(batches.map((b) => b.events.length)).toEqual([ANALYTICS_BATCH_MAX, 5]);
  });

  it('flushes everything on leaving, as keepalive batches', () => {
    const { analytics, batches } = setup();
    for (let i = 0; i < ANALYTICS_BATCH_MAX + 3; i++) analytics.pageView(`/p/${i}`);
    analytics.flush(true);
    expect(batches.map((b) => [b.events.length, b.leaving])).toEqual([
      [ANALYTICS_BATCH_MAX, false],
      [3, true],
    ]);
    expect(analytics.pending).toBe(0);
    vi.advanceTimersByTime(FLUSH_MS * 5);
    expect(batches).toHaveLength(2);
  });
});
