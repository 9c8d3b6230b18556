import { affiliateMessages as m, affiliatesRoutes as r } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyReferred,
  generateRef,
  openProgramme,
  vendorToken,
} from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createBuyer } from '../../../test/factories/orders.ts';
import { createUser } from '../../../test/factories/users.ts';
import { nextIp, startTestApp, type TestApp } from '../../../test/harness.ts';

// The workspace's affiliates page through the API: withdrawing a pending invitation, and the
// affiliates promoting the vendor with visits, paid sales and commission. Every vendor affiliate
// route refuses a buyer (403); another vendor's invitation is not found (404).

let t: TestApp;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let other: Awaited<ReturnType<typeof createVendor>>;
let token: string;
let otherToken: string;
let buyerToken: string;

beforeAll(async () => {
  t = await startTestApp();
  vendor = await createVendor(t, { displayName: 'Referral Desk' });
  other = await createVendor(t, { displayName: 'Other Desk' });
  token = await vendorToken(t, vendor);
  otherToken = await vendorToken(t, other);
  buyerToken = (await createBuyer(t)).token;
});
afterAll(async () => {
  await t?.close();
});

const invite = async (email: string, as = token) => {
  const res = await t.call(r.vendorInvite, { token: as, body: { email } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invitation as { id: string; status: string };
};

describe('withdrawing invitations', () => {
  it('withdraws a pending invitation: gone from the list, its link no longer accepts', async () => {
    const invitee = await createUser(t, { email: 'invitee.one@x.test' });
    const sent = await invite('invitee.one@x.test');
    const revoked = await t.call(r.vendorRevokeInvite, { token, params: { id: sent.id } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ id: sent.id });
    const list = await t.call(r.vendorInvites, { token });
    expect(list.json().invitations.map((i: { id: string }) => i.id)).not.toContain(sent.id);
    const inviteeToken = await t.deps.tokens.sign({
      sub: invitee.id,
      email: invitee.email,
      roles: ['buyer'],
    });
    const accept = await t.call(r.acceptInvite, {
      token: inviteeToken,
      params: { id: sent.id },
      query: { vendorId: vendor.id },
    });
    expect(accept.statusCode).toBe(404);
    const again = await t.call(r.vendorRevokeInvite, { token, params: { id: sent.id } });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to withdraw an accepted invitation (409) and another vendor’s (404)', async () => {
    const invitee = await createUser(t, { email: 'invitee.two@x.test' });
    const sent = await invite('invitee.two@x.test');
    const foreign = await t.call(r.vendorRevokeInvite, {
      token: otherToken,
      params: { id: sent.id },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: m.inviteNotFound, code: 'not_found' });
    const accepted = await t.call(r.acceptInvite, {
      token: await t.deps.tokens.sign({ sub: invitee.id, email: invitee.email, roles: ['buyer'] }),
      params: { id: sent.id },
      query: { vendorId: vendor.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const late = await t.call(r.vendorRevokeInvite, { token, params: { id: sent.id } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: m.inviteAccepted, code: 'conflict' });
  });
});

describe('the vendor’s affiliates', () => {
  it('lists each affiliate with visits, paid sales and net commission, newest first, paged', async () => {
    // A vendor of its own: the invitations accepted above made links of the first one's.
    const seller = await createVendor(t, { displayName: 'Fresh Desk' });
    const token = await vendorToken(t, seller);
    await openProgramme(t, token, { commissionBps: 2500 });
    const product = await createProduct(t, seller.id, { title: 'Referred Tool', amount: 4_000 });
    const first = await createUser(t, { username: 'promo_first' });
    const second = await createUser(t, { username: 'promo_second' });
    const tokenOf = (u: { id: string; email: string }) =>
      t.deps.tokens.sign({ sub: u.id, email: u.email, roles: ['buyer'] });
    const firstRef = await generateRef(t, await tokenOf(first), seller.id);
    const secondRef = await generateRef(t, await tokenOf(second), seller.id);
    // Older first link, so the newest-first order is certain.
    await t.database.db.execute(
      sql`update referral_links set created_at = now() - interval '1 day' where ref_id = ${firstRef.refId}`,
    );
    for (const ip of [nextIp(), nextIp()]) {
      const click = await t.call(r.affiliateClick, { ip, body: { refId: firstRef.refId } });
      expect(click.statusCode, click.body).toBe(200);
    }
    await buyReferred(t, seller.vendorUrl, product.priceId, firstRef.refId);
    await buyReferred(t, seller.vendorUrl, product.priceId, firstRef.refId);

    const page1 = await t.call(r.vendorAffiliates, { token, query: { limit: '1' } });
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().affiliates).toEqual([
      expect.objectContaining({
        refId: secondRef.refId,
        username: 'promo_second',
        sales: 0,
        clicks: 0,
        commission: [],
      }),
    ]);
    const page2 = await t.call(r.vendorAffiliates, {
      token,
      query: { limit: '1', cursor: page1.json().nextCursor },
    });
    expect(page2.json()).toEqual({
      affiliates: [
        expect.objectContaining({
          refId: firstRef.refId,
          username: 'promo_first',
          commissionBps: 2500,
          clicks: 2,
          sales: 2,
          commission: [{ amount: 2_000, currency: 'usd' }],
        }),
      ],
      nextCursor: null,
    });
    // Another vendor sees none of them, and this vendor's cursor pages nothing of theirs.
    const foreign = await t.call(r.vendorAffiliates, {
      token: otherToken,
      query: { cursor: page1.json().nextCursor },
    });
    expect(foreign.json().affiliates).toEqual([]);
    expect(
      (await t.call(r.vendorAffiliates, { token: otherToken, query: {} })).json().affiliates,
    ).toEqual([]);
  });

  it('answers 400 with the field for bad input', async () => {
    const badPage = await t.call(r.vendorAffiliates, { token, query: { limit: '0' } });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().fields.limit).toBeTruthy();
    const badInvite = await t.call(r.vendorInvite, { token, body: { email: 'not-an-email' } });
    expect(badInvite.statusCode).toBe(400);
    expect(badInvite.json().fields.email).toBeTruthy();
    const badTerms = await t.call(r.updateVendorProgramme, {
      token,
      body: { open: true, commissionBps: 2000, cookieDays: 0 },
    });
    expect(badTerms.statusCode).toBe(400);
    expect(badTerms.json().fields.cookieDays).toBeTruthy();
  });

  it('refuses a buyer on every vendor affiliate route (403)', async () => {
    for (const res of [
      await t.call(r.vendorProgramme, { token: buyerToken }),
      await t.call(r.updateVendorProgramme, {
        token: buyerToken,
        body: { open: true, commissionBps: 2000, cookieDays: 30 },
      }),
      await t.call(r.vendorInvites, { token: buyerToken }),
      await t.call(r.vendorInvite, { token: buyerToken, body: { email: 'someone@x.test' } }),
      await t.call(r.vendorRevokeInvite, { token: buyerToken, params: { id: 'inv_any' } }),
      await t.call(r.vendorAffiliates, { token: buyerToken, query: {} }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    }
  });
});
