import { ANALYTICS_BATCH_MAX, endpoints } from '@tradeshelf/contract/client';
import type { AnalyticsEvent } from '@tradeshelf/contract';
import type { ApiClient } from './http.ts';
import type { KeyValueStorage } from './session.ts';

export const ANON_KEY = 'ts_anon';
/** Queued events are sent this long after the first one of a batch. */
export const FLUSH_MS = 2000;

export interface AnalyticsDeps {
  storage: KeyValueStorage;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  newId: () => string;
  /** Sends one batch; `leaving` means the page is going away (use a keepalive request). */
  send: (events: AnalyticsEvent[], leaving: boolean) => Promise<unknown>;
}

/**
 * First-party analytics (docs/product.md#analytics): a `page_view` at each page load and route change, and an
 * `identify` once a user id exists. Events are batched (at most ANALYTICS_BATCH_MAX a request) to
 * POST /api/v1/analytics/events; failures are dropped, never retried into a loop.
 */
export class Analytics {
  private queue: AnalyticsEvent[] = [];
  private timer: unknown = null;
  private identified: string | null = null;
  readonly anonymousId: string;

  constructor(private readonly deps: AnalyticsDeps) {
    let id = deps.storage.getItem(ANON_KEY);
    if (!id || id.length < 8 || id.length > 64) {
      id = deps.newId();
      deps.storage.setItem(ANON_KEY, id);
    }
    this.anonymousId = id;
  }

  pageView(path: string, title?: string, referrer?: string) {
    this.push({
      type: 'page_view',
      anonymousId: this.anonymousId,
      path: (path || '/').slice(0, 2048),
      ...(title ? { title: title.slice(0, 300) } : {}),
      ...(referrer ? { referrer: referrer.slice(0, 2048) } : {}),
      occurredAt: new Date(this.deps.now()).toISOString(),
    });
  }

  /** Once per user id. */
  identify(userId: string) {
    if (!userId || this.identified === userId) return;
    this.identified = userId;
    this.push({
      type: 'identify',
      anonymousId: this.anonymousId,
      userId: userId.slice(0, 64),
      occurredAt: new Date(this.deps.now()).toISOString(),
    });
  }

  get pending(): number {
    return this.queue.length;
  }

  private push(e: AnalyticsEvent) {
    this.queue.push(e);
    if (this.queue.length >= ANALYTICS_BATCH_MAX) this.flush(false);
    else if (this.timer === null)
      this.timer = this.deps.setTimer(() => {
        this.timer = null;
        this.flush(false);
      }, FLUSH_MS);
  }

  /** Sends everything queued, in batches of at most ANALYTICS_BATCH_MAX. */
  flush(leaving: boolean) {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    while (this.queue.length) {
      const events = this.queue.splice(0, ANALYTICS_BATCH_MAX);
      void this.deps.send(events, leaving).catch(() => undefined);
    }
  }
}

/** The browser wiring: local storage, real timers, the API client, and a keepalive flush on pagehide. */
export function browserAnalytics(api: ApiClient, baseUrl: string): Analytics {
  const analytics = new Analytics({
    storage: window.localStorage,
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    newId: () => crypto.randomUUID(),
    send: (events, leaving) =>
      leaving
        ? // The page is going away: keepalive lets the request outlive it. No cookies, no token.
          fetch(baseUrl + endpoints.track.path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ events }),
            credentials: 'omit',
            keepalive: true,
          })
        : api.call(endpoints.track, { body: { events } }),
  });
  window.addEventListener('pagehide', () => analytics.flush(true));
  return analytics;
}
