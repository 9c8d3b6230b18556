import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR } from './http.ts';
import { CheckoutAttempt, isRetryable, newIdempotencyKey } from './idempotency.ts';

const counter = () => {
  let n = 0;
  return () => `key-${++n}`;
};

describe('checkout attempts and their Idempotency-Key', () => {
  it('keys are random and unique', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  it('a retry of the same checkout after a network error reuses the key', () => {
    const attempt = new CheckoutAttempt(counter());
    expect(attempt.keyFor('price_1|SAVE20')).toBe('key-1');
    attempt.settle(NETWORK_ERROR);
    expect(attempt.keyFor('price_1|SAVE20')).toBe('key-1');
    attempt.settle({ error: 'Request failed (502).', code: 'internal' });
    expect(attempt.keyFor('price_1|SAVE20')).toBe('key-1');
  });

  it('a changed checkout is a new attempt', () => {
    const attempt = new CheckoutAttempt(counter());
    attempt.keyFor('price_1|');
    attempt.settle(NETWORK_ERROR);
    expect(attempt.keyFor('price_2|')).toBe('key-2');
    expect(attempt.keyFor('price_2|SAVE20')).toBe('key-3');
  });

  it('an answer the server meant ends the attempt', () => {
    const attempt = new CheckoutAttempt(counter());
    attempt.keyFor('b');
    attempt.settle({ error: 'You already own this.', code: 'conflict' });
    expect(attempt.keyFor('b')).toBe('key-2');
    attempt.settle();
    expect(attempt.keyFor('b')).toBe('key-3');
    expect(isRetryable({ error: 'That coupon code is not valid.', code: 'business_rule' })).toBe(
      false,
    );
  });

  it('retries what the server did not act on: outages and requests that timed out', () => {
    for (const code of ['service_unavailable', 'request_timeout', 'network'])
      expect(isRetryable({ error: 'x', code })).toBe(true);
  });
});
