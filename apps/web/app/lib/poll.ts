/** What one look found: keep waiting, or done (the awaited state, or an error to show). */
export type PollOutcome = 'pending' | 'done';

export interface PollOptions {
  check: () => Promise<PollOutcome>;
  onTimeout: () => void;
  interval: number;
  timeout: number;
  /** Check at once (default), or first wait one interval (the caller has just looked). */
  immediate?: boolean;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Checks (at once unless `immediate` is false), then every `interval` while the answer is
 * `pending`, one request at a time; stops on `done`, and after `timeout` calls `onTimeout` instead
 * of checking again. Returns a cancel function.
 */
export function poll(options: PollOptions): () => void {
  const {
    check,
    onTimeout,
    interval,
    timeout,
    immediate = true,
    now = () => Date.now(),
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  } = options;
  const startedAt = now();
  let cancelled = false;
  let timer: unknown = null;
  const next = () => {
    if (now() - startedAt + interval > timeout) return onTimeout();
    timer = setTimer(() => void run(), interval);
  };
  const run = async () => {
    timer = null;
    const outcome = await check();
    if (cancelled || outcome === 'done') return;
    next();
  };
  if (immediate) void run();
  else next();
  return () => {
    cancelled = true;
    if (timer !== null) clearTimer(timer);
  };
}
