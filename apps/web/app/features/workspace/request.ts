import type { AsyncThunk } from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../lib/hooks.ts';
import { FALLBACK_ERROR, type RequestState } from '../../lib/request-state.ts';
import type { ThunkConfig } from '../../lib/thunk.ts';

// Workspace screens keep what they read in the component (ADR 039): no other page reads a vendor's
// drafts, sales or settings, so a Redux slice would hold state only one screen ever sees. Calls still
// go through one thunk each (docs/architecture.md#the-web-app), with the store's API client and session.
export type Thunk<Arg, Res> = AsyncThunk<Res, Arg, ThunkConfig>;

/** Runs a thunk and answers its payload, or throws the contract's `{ error, code, fields? }`. */
function useRun() {
  const dispatch = useAppDispatch();
  return useCallback(
    async <Arg, Res>(thunk: Thunk<Arg, Res>, arg: Arg): Promise<Res> => {
      // A thunk's creator takes no argument when `Arg` is void; the cast keeps one call for both.
      const create = thunk as unknown as (a: Arg) => Parameters<typeof dispatch>[0];
      const result = (await dispatch(create(arg))) as unknown;
      if (thunk.fulfilled.match(result)) return result.payload as Res;
      throw (result as { payload?: ApiError }).payload ?? FALLBACK_ERROR;
    },
    [dispatch],
  );
}

// Inferring `Arg` and `Res` through AsyncThunk's conditional types widens them (a void argument
// becomes `undefined`, the answer `| undefined`), so a thunk's types are read off its fulfilled action.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyThunk = Thunk<any, any>;
type Fulfilled<T extends AnyThunk> = ReturnType<T['fulfilled']>;
type ArgOf<T extends AnyThunk> = Fulfilled<T>['meta']['arg'];
type ResOf<T extends AnyThunk> = Fulfilled<T>['payload'];

interface Read<Res> extends RequestState<Res> {
  reload: () => Promise<void>;
  set: (data: Res) => void;
}

/**
 * Reads once when `arg` changes (compared by its JSON), and again on `reload`. A slow answer to an
 * older `arg` never overwrites a newer one.
 */
export function useRead<T extends AnyThunk>(thunk: T, arg: ArgOf<T>): Read<ResOf<T>>;
export function useRead<Arg, Res>(thunk: Thunk<Arg, Res>, arg: Arg): Read<Res>;
export function useRead<Arg, Res>(thunk: Thunk<Arg, Res>, arg: Arg): Read<Res> {
  const run = useRun();
  const key = JSON.stringify(arg ?? null);
  const [state, setState] = useState<RequestState<Res>>({
    status: 'idle',
    data: null,
    error: null,
  });
  const latest = useRef(0);
  const load = useCallback(async () => {
    const ticket = ++latest.current;
    setState((s) => ({ ...s, status: 'loading', error: null }));
    try {
      const data = await run(thunk, JSON.parse(key) as Arg);
      if (ticket === latest.current) setState({ status: 'success', data, error: null });
    } catch (error) {
      if (ticket === latest.current)
        setState((s) => ({ status: 'failure', data: s.data, error: error as ApiError }));
    }
  }, [run, thunk, key]);
  useEffect(() => {
    void load();
  }, [load]);
  /** Replaces what was read (after a save answered the new value). */
  const set = useCallback((data: Res) => setState({ status: 'success', data, error: null }), []);
  return { ...state, reload: load, set };
}

export interface Action<Arg, Res> extends RequestState<Res> {
  run: (arg: Arg) => Promise<Res | null>;
  reset: () => void;
  busy: boolean;
}

/**
 * One action (save, publish, refund…): `run` answers the payload or null, and keeps the failure in
 * `error` (with its field messages) until the next run.
 */
export function useAction<T extends AnyThunk>(thunk: T): Action<ArgOf<T>, ResOf<T>>;
export function useAction<Arg, Res>(thunk: Thunk<Arg, Res>): Action<Arg, Res>;
export function useAction<Arg, Res>(thunk: Thunk<Arg, Res>): Action<Arg, Res> {
  const runThunk = useRun();
  const [state, setState] = useState<RequestState<Res>>({
    status: 'idle',
    data: null,
    error: null,
  });
  const run = useCallback(
    async (arg: Arg): Promise<Res | null> => {
      setState((s) => ({ ...s, status: 'loading', error: null }));
      try {
        const data = await runThunk(thunk, arg);
        setState({ status: 'success', data, error: null });
        return data;
      } catch (error) {
        setState((s) => ({ status: 'failure', data: s.data, error: error as ApiError }));
        return null;
      }
    },
    [runThunk, thunk],
  );
  const reset = useCallback(() => setState({ status: 'idle', data: null, error: null }), []);
  return { ...state, run, reset, busy: state.status === 'loading' };
}
