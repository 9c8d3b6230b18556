import { vendorEndpoints } from '@tradeshelf/contract/client';
import type { Invitation, Programme, VendorAffiliate } from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

export const fetchProgramme = requestThunk<void, Programme | null>(
  'vendor/affiliates/programme',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorProgramme, {})).programme,
);

export type ProgrammeArg = { open: boolean; commissionBps: number; cookieDays: number };

export const saveProgramme = requestThunk<ProgrammeArg, Programme>(
  'vendor/affiliates/saveProgramme',
  async (body, { api }) =>
    (await api.call(vendorEndpoints.updateVendorProgramme, { body })).programme,
);

export const fetchInvitations = requestThunk<void, Invitation[]>(
  'vendor/affiliates/invites',
  async (_arg, { api }) => (await api.call(vendorEndpoints.vendorInvites, {})).invitations,
);

/** An invitation made or renewed, and whether its e-mail went out (at most one in 10 minutes). */
export interface InviteSent {
  invitation: Invitation;
  emailed: boolean;
}

export type InviteArg = {
  email: string;
  commissionBps?: number | undefined;
  cookieDays?: number | undefined;
};

export const sendInvitation = requestThunk<InviteArg, InviteSent>(
  'vendor/affiliates/invite',
  (body, { api }) => api.call(vendorEndpoints.vendorInvite, { body }),
);

export const revokeInvitation = requestThunk<string, string>(
  'vendor/affiliates/revoke',
  async (id, { api }) =>
    (await api.call(vendorEndpoints.vendorRevokeInvite, { params: { id } })).id,
);

/** Keyed by referral id (the list's `id`). */
export type AffiliateRow = VendorAffiliate & { id: string };

export type AffiliatesArg = { cursor?: string | undefined; limit?: number };

export const fetchAffiliates = requestThunk<
  AffiliatesArg,
  { items: AffiliateRow[]; nextCursor: string | null }
>('vendor/affiliates/list', async ({ cursor, limit = 20 }, { api }) => {
  const res = await api.call(vendorEndpoints.vendorAffiliates, { query: { limit, cursor } });
  return { items: res.affiliates.map((a) => ({ ...a, id: a.refId })), nextCursor: res.nextCursor };
});
