import { createAsyncThunk } from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';
import type { ThunkExtra } from '../store.ts';
import { toApiError } from './http.ts';

export type ThunkConfig = { extra: ThunkExtra; rejectValue: ApiError };

/**
 * The one way a feature calls the API (docs/architecture.md#the-web-app: one thunk per call). The call's answer is
 * the payload; any failure, thrown by the client or by `run`, is rejected as the contract's
 * `{ error, code, fields? }`, so every slice handles `a.payload` of one shape.
 */
export function requestThunk<Arg, Res>(
  type: string,
  run: (arg: Arg, extra: ThunkExtra) => Promise<Res>,
) {
  return createAsyncThunk<Res, Arg, ThunkConfig>(type, async (arg, api) => {
    try {
      return await run(arg, api.extra);
    } catch (err) {
      return api.rejectWithValue(toApiError(err));
    }
  });
}
