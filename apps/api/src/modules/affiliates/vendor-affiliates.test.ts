import {
  AFFILIATE_INVITES_PER_DAY,
  AFFILIATE_INVITES_PER_DAY_NEW_VENDOR,
  affiliateMessages as m,
  affiliatesRoutes as r,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buyReferred,
  generateRef,
  openProgramme,
  vendorToken,
} from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor, type Vendor } from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import { createBuyer } from '../../../test/factories/orders.ts';
import { createUser, userToken } from '../../../test/factories/users.ts';
import { nextIp, useTestApp } from '../../../test/harness.ts';
import { rules } from '../../platform/rate-limit.ts';

// The workspace's affiliates page through the API: withdrawing a pending invitation, and the
// affiliates promoting the vendor with visits, paid sales and commission. Every vendor affiliate
// route refuses a buyer (403); another vendor's invitation is not found (404).

const t = useTestApp();
let vendor: Vendor;
let token: string;
let otherToken: string;
let buyerToken: string;

beforeAll(async () => {
  ({
    vendor,
    vendorToken: token,
    otherToken,
  } = await vendorAndOther(t, {
    vendor: { displayName: 'Referral Desk' },
    other: { displayName: 'Other Desk' },
    signIn: vendorToken,
  }));
  buyerToken = (await createBuyer(t)).token;
});

const invite = async (email: string, as = token) => {
  const res = await t.call(r.vendorInvite, { token: as, body: { email } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invitation as { id: string; status: string };
};

// Probe of issue 26: a new vendor e-mailed 60 invitations to 60 addresses in a row (only one per
// address in 10 minutes was limited), a mail relay. Invitation e-mails are capped per vendor a day.
describe('invitation e-mails a day', () => {
  const mailsFrom = async (displayName: string) =>
    (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from mail_outbox where subject = ${`${displayName} invites you to its affiliate programme`}`,
      )
    ).rows[0]!.n;
  const invitesOf = async (vendorId: string) =>
    (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from affiliate_invites where vendor_id = ${vendorId}`,
      )
    ).rows[0]!.n;
  const send = (as: string, email: string) =>
    t.call(r.vendorInvite, { token: as, body: { email } });

  it('lets a new vendor e-mail its day’s few invitations, at once too; past them 429 with Retry-After', async () => {
    const fresh = await createVendor(t, { displayName: 'Fresh Relay Desk' });
    const freshToken = await vendorToken(t, fresh);
    const tries = AFFILIATE_INVITES_PER_DAY_NEW_VENDOR + 4;
    const results = await Promise.all(
      Array.from({ length: tries }, (_, i) => send(freshToken, `relay.${i}@x.test`)),
    );
    const statuses = results.map((res) => res.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(AFFILIATE_INVITES_PER_DAY_NEW_VENDOR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    for (const res of results.filter((x) => x.statusCode === 429)) {
      expect(res.json().code).toBe('rate_limited');
      expect(res.json().error).toMatch(
        new RegExp(
          `^A new storefront .* can send ${AFFILIATE_INVITES_PER_DAY_NEW_VENDOR} affiliate invitations a day, and today's are sent\\. Try again in \\d+ hours\\.$`,
        ),
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    }
    expect(await mailsFrom('Fresh Relay Desk')).toBe(AFFILIATE_INVITES_PER_DAY_NEW_VENDOR);
    expect(await invitesOf(fresh.id)).toBe(AFFILIATE_INVITES_PER_DAY_NEW_VENDOR);

    // Renewing an invitation e-mailed minutes ago sends nothing, so it is not counted.
    const sent = results.findIndex((x) => x.statusCode === 201);
    const renewed = await send(freshToken, `relay.${sent}@x.test`);
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().emailed).toBe(false);
    // A refused address was not e-mailed: on the next day it is.
    const refused = results.findIndex((x) => x.statusCode === 429);
    await t.deps.limiter.reset(rules.inviteVendorDay, fresh.id);
    const nextDay = await send(freshToken, `relay.${refused}@x.test`);
    expect(nextDay.statusCode).toBe(201);
    expect(nextDay.json().emailed).toBe(true);
  });

  it('takes one address in any case as one invitation, e-mailed once (the outside probe)', async () => {
    const desk = await createVendor(t, { displayName: 'Case Relay Desk' });
    const deskToken = await vendorToken(t, desk);
    const answers = [];
    for (const email of ['Dup@Example.test', 'dup@example.test', 'DUP@EXAMPLE.TEST'])
      answers.push(await send(deskToken, email));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(answers.map((a) => a.json().emailed)).toEqual([true, false, false]);
    expect(new Set(answers.map((a) => a.json().invitation.id)).size).toBe(1);
    expect(await mailsFrom('Case Relay Desk')).toBe(1);
    expect(await invitesOf(desk.id)).toBe(1);
  });

  it('gives an established vendor (older, with sales) the larger limit', async () => {
    const known = await createVendor(t, { displayName: 'Known Relay Desk' });
    const knownToken = await vendorToken(t, known);
    const product = await createProduct(t, known.id, { title: 'Sold Before' });
    await t.database.db.execute(sql`update products set sales_count = 3 where id = ${product.id}`);
    await t.database.db.execute(
      sql`update vendors set created_at = now() - interval '30 days' where id = ${known.id}`,
    );
    const results = await Promise.all(
      Array.from({ length: AFFILIATE_INVITES_PER_DAY + 1 }, (_, i) =>
        send(knownToken, `known.${i}@x.test`),
      ),
    );
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(AFFILIATE_INVITES_PER_DAY);
    const refused = results.filter((res) => res.statusCode === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.json().error).toMatch(
      new RegExp(`^You can send ${AFFILIATE_INVITES_PER_DAY} affiliate invitations a day`),
    );
    expect(await mailsFrom('Known Relay Desk')).toBe(AFFILIATE_INVITES_PER_DAY);
  });
});

describe('withdrawing invitations', () => {
  it('withdraws a pending invitation: gone from the list, its link no longer accepts', async () => {
    const invitee = await createUser(t, { email: 'invitee.one@x.test' });
    const sent = await invite('invitee.one@x.test');
    const revoked = await t.call(r.vendorRevokeInvite, { token, params: { id: sent.id } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ id: sent.id });
    const list = await t.call(r.vendorInvites, { token });
    expect(list.json().invitations.map((i: { id: string }) => i.id)).not.toContain(sent.id);
    const inviteeToken = await userToken(t, invitee);
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
      token: await userToken(t, invitee),
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
    const tokenOf = (u: { id: string; email: string }) => userToken(t, u);
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
