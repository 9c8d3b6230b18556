import { screenEndpoints } from '@tradeshelf/contract/client';
import type { ContactRequest } from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

/** The contact message: a public call (docs/product.md#bearer-tokens), so no bearer token goes with it. */
export const sendContact = requestThunk<ContactRequest, { message: string }>(
  'support/contact',
  (body, { api }) => api.call(screenEndpoints.contact, { body }),
);
