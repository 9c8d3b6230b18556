import { describe, expect, it } from 'vitest';
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';
import { addRequestCases, fail, idle, start, succeed, type RequestState } from './request-state.ts';

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

describe('addRequestCases', () => {
  const read = createAsyncThunk<{ n: number }, string, { rejectValue: ApiError }>(
    'test/read',
    () => ({ n: 1 }),
  );
  interface State {
    byId: Record<string, RequestState<number>>;
    log: string[];
  }
  const slice = createSlice({
    name: 'test',
    initialState: { byId: {}, log: [] } as State,
    reducers: {},
    extraReducers: (b) => {
      addRequestCases(b, read, (s, id) => (s.byId[id] ??= idle()), {
        started: (s, id) => void s.log.push(`started ${id}`),
        map: (answer, s, id) => answer.n + s.log.length + (id === 'b' ? 100 : 0),
        done: (s, answer, id) => void s.log.push(`done ${id} ${answer.n}`),
      });
    },
  });
  const r = slice.reducer;

  it('keeps one sub-request per argument, with the steps around the stored answer', () => {
    let s = r(undefined, read.pending('r1', 'b'));
    expect(s.byId.b!.status).toBe('loading');
    expect(s.log).toEqual(['started b']);
    s = r(s, read.fulfilled({ n: 2 }, 'r1', 'b'));
    // `map` saw the state before `done` ran (one log line), and the argument.
    expect(s.byId.b).toEqual({ status: 'success', data: 103, error: null });
    expect(s.log).toEqual(['started b', 'done b 2']);
    s = r(s, read.rejected(null, 'r2', 'a', { error: 'Nope', code: 'not_found' }));
    expect(s.byId.a).toEqual({
      status: 'failure',
      data: null,
      error: { error: 'Nope', code: 'not_found' },
    });
    expect(s.byId.b!.status).toBe('success');
  });
});
