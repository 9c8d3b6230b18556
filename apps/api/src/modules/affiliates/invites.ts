// Use case: a vendor invites an affiliate by e-mail with its terms; the invited account accepts.
import {
  affiliateMessages,
  AFFILIATE_INVITES_PER_DAY,
  AFFILIATE_INVITES_PER_DAY_NEW_VENDOR,
  inviteLimitMessage,
  NEW_VENDOR_DAYS,
  type AffiliateVendor,
  type Invitation,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { formatWait, rules } from '../../platform/rate-limit.ts';
import { vendorIsNew, vendorSummaries } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { formatBps } from '@tradeshelf/contract';
import { invitationView, type InviteRow } from './presenter.ts';
import { DEFAULT_TERMS, programmeOf } from './programme.ts';
import { affiliateVendorsOf, newRefId } from './vendors.ts';

/** How long an invitation can be accepted. */
const INVITE_DAYS = 30;

const inviteColumns = sql`id, ref_id, vendor_id, email, commission_bps, cookie_days, status,
  created_at, expires_at`;

async function present(db: Tx, rows: InviteRow[]): Promise<Invitation[]> {
  const names = await vendorSummaries(
    db,
    rows.map((r) => r.vendor_id),
  );
  return rows.map((r) => invitationView(r, names.get(r.vendor_id)));
}

/**
 * Invites an e-mail address. Inviting it again while the first is pending renews that invitation
 * with the new terms. The invitation and its e-mail commit together (the outbox); an address is
 * e-mailed at most once in 10 minutes per vendor (repeated clicks would flood its inbox), and the
 * answer's `emailed` says whether this one was. A vendor e-mails at most its day's invitations
 * (fewer while it is new): past them the answer is 429 and nothing changes (ADR 052).
 */
export async function inviteAffiliate(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  body: { email: string; commissionBps?: number | undefined; cookieDays?: number | undefined },
  origin: string,
): Promise<{ invitation: Invitation; emailed: boolean }> {
  const db = deps.database.db;
  const email = body.email.toLowerCase();
  if (email === (await users.emailIn(db, userId))?.toLowerCase()) {
    throw new AppError('business_rule', affiliateMessages.inviteSelf);
  }
  const inviteKey = `${vendorId}:${email}`;
  const emailed = (await deps.limiter.hit(rules.inviteEmail, inviteKey)).count <= 1;
  if (emailed) await takeDailyInvite(deps, vendorId, inviteKey);
  const programme = await programmeOf(db, vendorId);
  const commissionBps =
    body.commissionBps ?? programme?.commissionBps ?? DEFAULT_TERMS.commissionBps;
  const cookieDays = body.cookieDays ?? programme?.cookieDays ?? DEFAULT_TERMS.cookieDays;
  const vendor = (await vendorSummaries(db, [vendorId])).get(vendorId)!;
  // An invitee who already promotes this vendor keeps their link: the invitation names it.
  const invitee = await users.findAccountByEmail(db, email);
  const existing = invitee
    ? await db.execute<{ ref_id: string }>(
        sql`select ref_id from referral_links where vendor_id = ${vendorId} and user_id = ${invitee.id}`,
      )
    : null;
  const refId = existing?.rows[0]?.ref_id ?? newRefId(vendor.vendorUrl);
  const mailIds: string[] = [];
  const row = await db.transaction(async (tx) => {
    const found =
      await tx.execute<InviteRow>(sql`insert into affiliate_invites (id, vendor_id, email,
        ref_id, commission_bps, cookie_days, invited_by, expires_at)
      values (${newId('inv')}, ${vendorId}, ${email}, ${refId}, ${commissionBps}, ${cookieDays},
        ${userId}, now() + make_interval(days => ${INVITE_DAYS}))
      on conflict (vendor_id, lower(email)) where status = 'pending' do update set
        commission_bps = excluded.commission_bps, cookie_days = excluded.cookie_days,
        invited_by = excluded.invited_by, expires_at = excluded.expires_at
      returning ${inviteColumns}`);
    const invite = found.rows[0]!;
    if (!emailed) return invite;
    mailIds.push(
      await deps.mailer.enqueue(tx, {
        to: email,
        subject: `${vendor.displayName} invites you to its affiliate programme`,
        text: [
          `${vendor.displayName} invites you to promote its products on Tradeshelf.`,
          '',
          `Commission: ${formatBps(invite.commission_bps)} of every payment a buyer you refer makes.`,
          `Your link is remembered for ${invite.cookie_days} days after a visit.`,
          '',
          `Accept the invitation (sign in or sign up with this e-mail address): ${origin}/affiliate?invite=${invite.id}`,
          '',
          `The invitation is open until ${new Date(invite.expires_at).toISOString().slice(0, 10)}.`,
        ].join('\n'),
      }),
    );
    return invite;
  });
  await deps.mailer.dispatch(mailIds);
  return { invitation: (await present(db, [row]))[0]!, emailed };
}

/**
 * Counts one invitation e-mail against the vendor's day (an atomic counter, so invitations sent at
 * once cannot pass it together). Past the limit: 429, and the address is free to be e-mailed later.
 */
async function takeDailyInvite(deps: AppDeps, vendorId: string, inviteKey: string) {
  const isNew = await vendorIsNew(deps.database.db, vendorId, NEW_VENDOR_DAYS);
  const limit = isNew ? AFFILIATE_INVITES_PER_DAY_NEW_VENDOR : AFFILIATE_INVITES_PER_DAY;
  const day = await deps.limiter.hit(rules.inviteVendorDay, vendorId);
  if (day.count <= limit) return;
  await deps.limiter.reset(rules.inviteEmail, inviteKey);
  throw new AppError(
    'rate_limited',
    inviteLimitMessage(limit, isNew, formatWait(day.resetIn)),
    undefined,
    { 'retry-after': String(day.resetIn) },
  );
}

export async function vendorInvitations(
  deps: AppDeps,
  vendorId: string,
): Promise<{ invitations: Invitation[] }> {
  const db = deps.database.db;
  const found = await db.execute<InviteRow>(
    sql`select ${inviteColumns} from affiliate_invites where vendor_id = ${vendorId}
        order by created_at desc, id desc limit 200`,
  );
  return { invitations: await present(db, found.rows) };
}

/** Invitations to the user's e-mail address that wait for an answer. */
export async function pendingInvitations(
  deps: AppDeps,
  userId: string,
): Promise<{ invitations: Invitation[] }> {
  const db = deps.database.db;
  const email = await users.emailIn(db, userId);
  if (!email) return { invitations: [] };
  const found = await db.execute<InviteRow>(
    sql`select ${inviteColumns} from affiliate_invites
        where lower(email) = lower(${email}) and status = 'pending' and expires_at > now()
        order by created_at desc, id desc limit 100`,
  );
  return { invitations: await present(db, found.rows) };
}

/**
 * Accepts an invitation sent to the user's address: a link on the invitation's terms (an existing
 * link takes them and keeps its id). Another account's invitation answers 404, as if unknown.
 * Accepting again answers the same referral.
 */
export async function acceptInvitation(
  deps: AppDeps,
  userId: string,
  inviteId: string,
  vendorId: string,
  origin: string,
): Promise<{ referral: AffiliateVendor }> {
  const db = deps.database.db;
  const email = await users.emailIn(db, userId);
  const accepted = await db.transaction(async (tx) => {
    const found = await tx.execute<InviteRow & { accepted_by: string | null }>(
      sql`select ${inviteColumns}, accepted_by from affiliate_invites
          where id = ${inviteId} and vendor_id = ${vendorId} and lower(email) = lower(${email ?? ''})
          for update`,
    );
    const invite = found.rows[0];
    if (!invite) return false;
    if (invite.status === 'accepted') return invite.accepted_by === userId;
    if (new Date(invite.expires_at) <= new Date()) return false;
    await tx.execute(sql`insert into referral_links (ref_id, vendor_id, user_id, commission_bps, cookie_days)
      values (${invite.ref_id}, ${invite.vendor_id}, ${userId}, ${invite.commission_bps}, ${invite.cookie_days})
      on conflict (vendor_id, user_id) do update set commission_bps = excluded.commission_bps,
        cookie_days = excluded.cookie_days`);
    await tx.execute(sql`update affiliate_invites set status = 'accepted', accepted_by = ${userId},
        accepted_at = now() where id = ${invite.id}`);
    return true;
  });
  if (!accepted) throw new AppError('not_found', affiliateMessages.inviteNotFound);
  const [referral] = await affiliateVendorsOf(
    db,
    userId,
    sql`select ${vendorId}::text as vendor_id`,
    origin,
  );
  return { referral: referral! };
}
