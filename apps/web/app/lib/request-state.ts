import type {
  ActionReducerMapBuilder,
  AsyncThunk,
  AsyncThunkConfig,
  Draft,
} from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';

export type RequestStatus = 'idle' | 'loading' | 'success' | 'failure';

/** One sub-request of a request group (docs/product.md#request-states). */
export interface RequestState<T> {
  status: RequestStatus;
  data: T | null;
  error: ApiError | null;
}

export const FALLBACK_ERROR: ApiError = { error: 'Something went wrong', code: 'internal' };

export function idle<T>(data: T | null = null): RequestState<T> {
  return { status: 'idle', data, error: null };
}

export const start = <T>(r: RequestState<T>) => {
  r.status = 'loading';
  r.error = null;
};
export const succeed = <T>(r: RequestState<T>, data: T) => {
  r.status = 'success';
  r.data = data;
  r.error = null;
};
/** docs/product.md#request-states: the error body of the failed call is stored as the group's failure data. */
export const fail = <T>(r: RequestState<T>, error: ApiError | undefined | null) => {
  r.status = 'failure';
  r.error = error ?? FALLBACK_ERROR;
};

/** What one thunk's answer does beyond its own sub-request (all optional). */
export interface RequestSteps<S, Returned, Arg, D> {
  /** The answer as stored (default: as it came); sees the state before it is stored. */
  map?: (payload: Returned, state: Draft<S>, arg: Arg) => D;
  /** Before the sub-request shows loading: clear or note what belongs to this call. */
  started?: (state: Draft<S>, arg: Arg) => void;
  /** After the answer is stored: what else in the group it changes. */
  done?: (state: Draft<S>, payload: Returned, arg: Arg) => void;
}

/**
 * The reducers of one thunk over one sub-request: pending → loading, fulfilled → success with the
 * (optionally mapped) answer, rejected → failure with the server's error (the rejectWithValue
 * payload). `select` picks the sub-request out of the slice state, by the call's argument where a
 * group holds one per argument.
 */
export function addRequestCases<
  S,
  Returned,
  Arg,
  Config extends AsyncThunkConfig & { rejectValue: ApiError },
  D = Returned,
>(
  builder: ActionReducerMapBuilder<S>,
  thunk: AsyncThunk<Returned, Arg, Config>,
  select: (state: Draft<S>, arg: Arg) => RequestState<D>,
  { map = (p) => p as unknown as D, started, done }: RequestSteps<S, Returned, Arg, D> = {},
): ActionReducerMapBuilder<S> {
  // Every thunk action carries its argument; the generic action types do not say so.
  const argOf = (action: unknown) => (action as { meta: { arg: Arg } }).meta.arg;
  return builder
    .addCase(thunk.pending, (state, action) => {
      started?.(state, argOf(action));
      start(select(state, argOf(action)));
    })
    .addCase(thunk.fulfilled, (state, action) => {
      const payload = action.payload as Returned;
      succeed(select(state, argOf(action)), map(payload, state, argOf(action)));
      done?.(state, payload, argOf(action));
    })
    .addCase(thunk.rejected, (state, action) =>
      fail(select(state, argOf(action)), (action.payload as ApiError | undefined) ?? null),
    );
}
