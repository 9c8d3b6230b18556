// The account controls' calls (issue 33, ADR 058): one thunk per call. The screens keep the
// answers themselves, as the two-factor section does: no other screen shows them.
import { accountEndpoints, screenEndpoints } from '@tradeshelf/contract/client';
import type {
  AccountConfirm,
  AccountExport,
  AccountSession,
  AccountSettings,
  BillingDetails,
} from '@tradeshelf/contract';
import { requestThunk as thunk } from '../../lib/thunk.ts';

export const fetchSessions = thunk<void, AccountSession[]>(
  'account/sessions',
  async (_, { api }) => (await api.call(screenEndpoints.accountSessions, {})).sessions,
);
export const endSession = thunk<string, { message: string }>('account/endSession', (id, { api }) =>
  api.call(screenEndpoints.accountSessionEnd, { params: { id } }),
);
export const endOtherSessions = thunk<void, { message: string; ended: number }>(
  'account/endOthers',
  (_, { api }) => api.call(screenEndpoints.accountSessionsEndOthers, {}),
);
export const fetchAccountSettings = thunk<void, AccountSettings>('account/settings', (_, { api }) =>
  api.call(screenEndpoints.accountSettings, {}),
);
export const requestEmailChange = thunk<
  { email: string; password: string; twoFactorCode?: string },
  { message: string }
>('account/emailChange', (body, { api }) => api.call(screenEndpoints.accountEmailChange, { body }));
export const confirmEmailChange = thunk<string, { message: string; email: string }>(
  'account/emailConfirm',
  (token, { api }) => api.call(screenEndpoints.accountEmailConfirm, { body: { token } }),
);
export const exportAccountData = thunk<AccountConfirm, AccountExport>(
  'account/export',
  (body, { api }) => api.call(accountEndpoints.accountExport, { body }),
);
/** Deleting the account ends every sign-in, this one too: the stored session goes with it. */
export const deleteAccount = thunk<AccountConfirm, { message: string }>(
  'account/delete',
  async (body, { api, session }) => {
    const answer = await api.call(accountEndpoints.accountDelete, { body });
    session.clear();
    return answer;
  },
);
export const fetchBilling = thunk<void, BillingDetails>(
  'account/billing',
  async (_, { api }) => (await api.call(accountEndpoints.billingDetails, {})).billing,
);
export const saveBilling = thunk<BillingDetails, { message: string; billing: BillingDetails }>(
  'account/saveBilling',
  (body, { api }) => api.call(accountEndpoints.saveBillingDetails, { body }),
);
