import { describe, expect, it } from 'vitest';
import { fail, idle, start, succeed } from './request-state.ts';

describe('request state helper', () => {
  it('moves idle → loading → success and clears the error', () => {
    const r = idle<number>();
    expect(r).toEqual({ status: 'idle', data: null, error: null });
    start(r);
    expect(r.status).toBe('loading');
    succeed(r, 42);
    expect(r).toEqual({ status: 'success', data: 42, error: null });
  });

  it('stores the whole error on failure, keeping earlier data', () => {
    const r = idle<number>(7);
    start(r);
    fail(r, { error: 'Nope', code: 'not_found' });
    expect(r).toEqual({ status: 'failure', data: 7, error: { error: 'Nope', code: 'not_found' } });
    start(r);
    expect(r.error).toBeNull();
    fail(r, undefined);
    expect(r.error).toEqual({ error: 'Something went wrong', code: 'internal' });
  });
});
