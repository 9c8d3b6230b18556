import type { ApiError } from '@tradeshelf/contract';

/** A random key for the `Idempotency-Key` header (works outside secure contexts too). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Answers after which the same request may be sent again as-is: nothing arrived, or the server failed. */
const RETRYABLE = new Set([
  'network',
  'internal',
  'service_unavailable',
  'rate_limited',
  // The request did not arrive whole in time (a slow or dropped upload): nothing was done.
  'request_timeout',
]);
export const isRetryable = (error: ApiError) => RETRYABLE.has(error.code);

/**
 * One buy attempt = one idempotency key. Clicking Buy again for the same checkout (same item, plan,
 * coupon) after a network or server failure reuses the key, so the server hands back the session it
 * may already have created instead of opening a second one. A changed checkout, or an answer the
 * server meant (success, or a refusal such as "You already own this."), starts a new attempt.
 */
export class CheckoutAttempt {
  private current: { fingerprint: string; key: string } | null = null;

  constructor(private readonly makeKey: () => string = newIdempotencyKey) {}

  keyFor(fingerprint: string): string {
    if (!this.current || this.current.fingerprint !== fingerprint)
      this.current = { fingerprint, key: this.makeKey() };
    return this.current.key;
  }

  /** The attempt got an answer: keep the key only when the same request should be retried. */
  settle(error?: ApiError | null): void {
    if (!error || !isRetryable(error)) this.current = null;
  }
}
