import { createAsyncThunk } from '@reduxjs/toolkit';
import { endpoints } from '@tradeshelf/contract/client';
import type { ApiError, ContactRequest } from '@tradeshelf/contract';
import { toApiError } from '../../lib/http.ts';
import type { ThunkExtra } from '../../store.ts';

/** SPEC §7 contact message: a public call (SPEC §6), so no bearer token goes with it. */
export const sendContact = createAsyncThunk<
  { message: string },
  ContactRequest,
  { extra: ThunkExtra; rejectValue: ApiError }
>('support/contact', async (body, { extra, rejectWithValue }) => {
  try {
    return await extra.api.call(endpoints.contact, { body });
  } catch (err) {
    return rejectWithValue(toApiError(err));
  }
});
