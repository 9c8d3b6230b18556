import { createSlice } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../store.ts';
import { lazySlice } from './lazy-slices.ts';
import { memoryStorage } from './session.ts';

describe('lazily loaded slices (ADR 038)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a slice that loads after the browser store exists has its state at once, and reduces', () => {
    vi.stubGlobal('window', {});
    const { store } = makeStore({ storage: memoryStorage() });
    const state = () => store.getState() as unknown as Record<string, unknown>;
    expect(state().lateFeature).toBeUndefined();

    const late = createSlice({
      name: 'lateFeature',
      initialState: { count: 0 },
      reducers: { bump: (s) => void (s.count += 1) },
    });
    lazySlice(late);
    expect(state().lateFeature).toEqual({ count: 0 });

    store.dispatch(late.actions.bump());
    expect(state().lateFeature).toEqual({ count: 1 });
    // The shell's slices are untouched.
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });

  it('a store made after a feature loaded starts with its slice', async () => {
    await import('../features/support/slice.ts');
    const { store } = makeStore({ storage: memoryStorage() });
    expect(store.getState().support.contact.status).toBe('idle');
  });
});
