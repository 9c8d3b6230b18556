/** The return page asks for the purchase this often while it is pending… */
export const POLL_INTERVAL_MS = 1500;
/** …and gives up after this long (the receipt e-mail follows when the payment lands). */
export const POLL_TIMEOUT_MS = 2 * 60_000;

/** What one look at the purchase found: keep waiting, or done (a final status, or an error to show). */
export type PollOutcome = 'pending' | 'done';

export interface PollOptions {
  check: () => Promise<PollOutcome>;
  onTimeout: () => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  interval?: number;
  timeout?: number;
}

/**
 * Checks at once, then every `interval` while the answer is `pending`, one request at a time; stops on
 * `done`, and after `timeout` calls `onTimeout` instead of checking again. Returns a cancel function.
 */
export function pollPurchase(options: PollOptions): () => void {
  const {
    check,
    onTimeout,
    now = () => Date.now(),
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    interval = POLL_INTERVAL_MS,
    timeout = POLL_TIMEOUT_MS,
  } = options;
  const startedAt = now();
  let cancelled = false;
  let timer: unknown = null;
  const run = async () => {
    timer = null;
    const outcome = await check();
    if (cancelled || outcome === 'done') return;
    if (now() - startedAt + interval > timeout) return onTimeout();
    timer = setTimer(() => void run(), interval);
  };
  void run();
  return () => {
    cancelled = true;
    if (timer !== null) clearTimer(timer);
  };
}
