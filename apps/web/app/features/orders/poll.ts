import { poll, type PollOptions } from '../../lib/poll.ts';

export type { PollOutcome } from '../../lib/poll.ts';

/** The return page asks for the purchase this often while it is pending… */
export const POLL_INTERVAL_MS = 1500;
/** …and gives up after this long (the receipt e-mail follows when the payment lands). */
export const POLL_TIMEOUT_MS = 2 * 60_000;

/**
 * Checks at once, then every 1.5 s while the answer is `pending`, one request at a time; stops on
 * `done`, and after two minutes calls `onTimeout` instead of checking again. Returns a cancel function.
 */
export function pollPurchase(
  options: Omit<PollOptions, 'interval' | 'timeout' | 'immediate'> &
    Partial<Pick<PollOptions, 'interval' | 'timeout'>>,
): () => void {
  return poll({ interval: POLL_INTERVAL_MS, timeout: POLL_TIMEOUT_MS, ...options });
}
