import { createAction, createAsyncThunk, type PayloadActionCreator } from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';
import type { ThunkExtra } from '../store.ts';
import { toApiError } from './http.ts';

export type ThunkConfig = { extra: ThunkExtra; rejectValue: ApiError };

/**
 * A request thunk's actions without its call. A slice every page loads reduces a lazily loaded
 * feature's answers by these, so the shell does not carry the feature's calls and their routes
 * (issue 27). The thunk is made from the same object, so its type is written once.
 */
export interface ThunkActions<Arg, Res> {
  readonly type: string;
  readonly pending: PayloadActionCreator<void>;
  readonly fulfilled: PayloadActionCreator<Res>;
  readonly rejected: PayloadActionCreator<ApiError | undefined>;
  /** Only carries `Arg` to `requestThunk`. */
  readonly arg?: Arg;
}

export function thunkActions<Arg, Res>(type: string): ThunkActions<Arg, Res> {
  return {
    type,
    pending: createAction<void>(`${type}/pending`),
    fulfilled: createAction<Res>(`${type}/fulfilled`),
    rejected: createAction<ApiError | undefined>(`${type}/rejected`),
  };
}

/**
 * The one way a feature calls the API (docs/architecture.md#the-web-app: one thunk per call). The call's answer is
 * the payload; any failure, thrown by the client or by `run`, is rejected as the contract's
 * `{ error, code, fields? }`, so every slice handles `a.payload` of one shape.
 */
export function requestThunk<Arg, Res>(
  type: string | ThunkActions<Arg, Res>,
  run: (arg: Arg, extra: ThunkExtra) => Promise<Res>,
) {
  return createAsyncThunk<Res, Arg, ThunkConfig>(
    typeof type === 'string' ? type : type.type,
    async (arg, api) => {
      try {
        return await run(arg, api.extra);
      } catch (err) {
        return api.rejectWithValue(toApiError(err));
      }
    },
  );
}
