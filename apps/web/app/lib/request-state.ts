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

/**
 * The reducers of one thunk over one sub-request: pending → loading, fulfilled → success with the
 * (optionally mapped) answer, rejected → failure with the server's error (the rejectWithValue
 * payload). `select` picks the sub-request out of the slice state.
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
  select: (state: Draft<S>) => RequestState<D>,
  map: (payload: Returned) => D = (p) => p as unknown as D,
): ActionReducerMapBuilder<S> {
  return builder
    .addCase(thunk.pending, (state) => start(select(state)))
    .addCase(thunk.fulfilled, (state, action) =>
      succeed(select(state), map(action.payload as Returned)),
    )
    .addCase(thunk.rejected, (state, action) =>
      fail(select(state), (action.payload as ApiError | undefined) ?? null),
    );
}
