// Use case: pay out the affiliate's available balance exactly once, and follow the provider's answer
// (ADR 037). The balance is the ledger's; the payout row and its ledger debit commit together under
// a per-affiliate lock, and the transfer happens after, with a key derived from the payout id.
import {
  affiliateMessages,
  belowMinimumMessage,
  type Payout,
  formatMoney,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { TransferRefusedError, type TransferEvent } from '../../integrations/payments/port.ts';
import { backoff, newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import * as orders from '../orders/index.ts';
import { holdNow } from './clock.ts';
import { payoutAccountOf } from './connect.ts';
import { payoutView, type PayoutRow } from './presenter.ts';

/** A just-requested payout is left to its own request this long before the retry job takes it. */
const FIRST_RETRY_SECONDS = 60;
/** 1, 2, 4 … minutes between retries of a transfer whose outcome was unknown; at most an hour. */
const retrySeconds = (attempts: number) => backoff(attempts, 60, 3600);

const payoutColumns = sql`id, user_id, provider, account_id, amount, currency, status,
  idempotency_key, transfer_id, failure_reason, attempts, created_at, updated_at`;

const rule = (message: string) => new AppError('business_rule', message);

/** The currency to pay: the largest available balance (ties: the larger total earned). */
export function payoutCurrency(
  balances: orders.AffiliateBalance[],
): orders.AffiliateBalance | null {
  return [...balances].sort((a, b) => b.available - a.available || b.earned - a.earned)[0] ?? null;
}

/**
 * Requests a payout of the whole available balance of one currency. Concurrent requests queue on a
 * transaction-scoped advisory lock per affiliate; each reads the balance from the ledger after the
 * one before it committed its debit, so only the first finds money to pay. Then the transfer.
 */
export async function requestPayout(deps: AppDeps, userId: string): Promise<{ payout: Payout }> {
  const db = deps.database.db;
  const account = await payoutAccountOf(db, userId, deps.payments.name);
  if (!account?.payouts_enabled) throw rule(affiliateMessages.connectFirst);
  const minimum = deps.config.AFFILIATE_MIN_PAYOUT;
  const payout = await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`affiliate-payout:${userId}`}, 0))`,
    );
    const hold = await holdNow(deps, tx);
    const best = payoutCurrency(await orders.affiliateBalances(tx, userId, hold.cutoff));
    if (!best || best.available <= 0) throw rule(affiliateMessages.nothingAvailable);
    if (best.available < minimum) {
      throw rule(
        belowMinimumMessage(
          formatMoney(minimum, best.currency),
          formatMoney(best.available, best.currency),
        ),
      );
    }
    const id = newId('pay');
    const found =
      await tx.execute<PayoutRow>(sql`insert into affiliate_payouts (id, user_id, provider,
        account_id, amount, currency, idempotency_key, next_attempt_at)
      values (${id}, ${userId}, ${deps.payments.name}, ${account.account_id}, ${best.available},
        ${best.currency}, ${`payout:${id}`}, now() + make_interval(secs => ${FIRST_RETRY_SECONDS}))
      returning ${payoutColumns}`);
    const row = found.rows[0]!;
    await orders.recordAffiliatePayout(tx, entryOf(row));
    return row;
  });
  return { payout: payoutView(await transfer(deps, payout)) };
}

const entryOf = (p: PayoutRow): orders.PayoutEntry => ({
  payoutId: p.id,
  userId: p.user_id,
  amount: p.amount,
  currency: p.currency,
  provider: p.provider,
});

/**
 * One transfer attempt for a requested payout. Paid: marked paid. Refused: failed with the
 * provider's reason and the amount back in the balance. Unknown (timeout, outage): left requested
 * for the retry job, which repeats it with the same idempotency key.
 */
export async function transfer(deps: AppDeps, payout: PayoutRow): Promise<PayoutRow> {
  const db = deps.database.db;
  try {
    const { transferId } = await deps.payments.transfer({
      accountId: payout.account_id,
      amount: payout.amount,
      currency: payout.currency,
      idempotencyKey: payout.idempotency_key,
      metadata: { payout_id: payout.id, user_id: payout.user_id },
    });
    await db.execute(sql`update affiliate_payouts set status = 'paid', transfer_id = ${transferId},
        updated_at = now()
      where id = ${payout.id} and status = 'requested'`);
  } catch (err) {
    if (err instanceof TransferRefusedError) {
      await settle(deps, payout.id, 'failed', err.message || affiliateMessages.providerRefused);
    } else {
      await db.execute(sql`update affiliate_payouts set attempts = attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${retrySeconds(payout.attempts + 1)}),
          updated_at = now()
        where id = ${payout.id} and status = 'requested'`);
    }
  }
  return (await payoutRow(db, payout.id))!;
}

/**
 * Ends a payout that did not reach the affiliate: `failed` (refused) or `returned` (reversed after
 * it was paid). The status change and the ledger entry giving the amount back commit together, once.
 */
export async function settle(
  deps: AppDeps,
  payoutId: string,
  outcome: 'failed' | 'returned',
  reason: string,
): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const found = await tx.execute<PayoutRow>(sql`update affiliate_payouts set status = ${outcome},
        failure_reason = ${reason.slice(0, 500)}, updated_at = now()
      where id = ${payoutId} and status in ('requested', 'paid')
      returning ${payoutColumns}`);
    const row = found.rows[0];
    if (row) await orders.returnAffiliatePayout(tx, entryOf(row));
  });
}

export async function payoutRow(db: Tx, id: string): Promise<PayoutRow | null> {
  const found = await db.execute<PayoutRow>(
    sql`select ${payoutColumns} from affiliate_payouts where id = ${id}`,
  );
  return found.rows[0] ?? null;
}

/** One of the user's payouts; another user's answers 404 like an unknown id. */
export async function ownPayout(
  deps: AppDeps,
  userId: string,
  id: string,
): Promise<{ payout: Payout }> {
  const row = await payoutRow(deps.database.db, id);
  if (!row || row.user_id !== userId)
    throw new AppError('not_found', affiliateMessages.payoutNotFound);
  return { payout: payoutView(row) };
}

export async function payoutsOf(db: Tx, userId: string, limit = 50): Promise<Payout[]> {
  const found = await db.execute<PayoutRow>(
    sql`select ${payoutColumns} from affiliate_payouts where user_id = ${userId}
        order by created_at desc, id desc limit ${limit}`,
  );
  return found.rows.map(payoutView);
}

/**
 * The provider's word on a transfer, from its webhook. Each change is conditional on the payout's
 * status, so a repeat or a late event changes nothing: paid only from requested; failed or returned
 * (with the amount back in the balance) only from requested or paid.
 */
export async function applyTransferEvent(
  deps: AppDeps,
  event: TransferEvent,
): Promise<'processed' | 'ignored'> {
  const db = deps.database.db;
  const found = await db.execute<{ id: string }>(
    sql`select id from affiliate_payouts
        where provider = ${deps.payments.name}
          and (id = ${event.payoutId ?? ''} or transfer_id = ${event.transferId ?? ''})
        limit 1`,
  );
  const id = found.rows[0]?.id;
  if (!id) return 'ignored';
  if (event.type === 'transfer.paid') {
    await db.execute(sql`update affiliate_payouts set status = 'paid',
        transfer_id = coalesce(transfer_id, ${event.transferId}), updated_at = now()
      where id = ${id} and status = 'requested'`);
  } else {
    const reversed = event.type === 'transfer.reversed';
    await settle(
      deps,
      id,
      reversed ? 'returned' : 'failed',
      event.reason ??
        (reversed ? affiliateMessages.providerReversed : affiliateMessages.providerRefused),
    );
  }
  return 'processed';
}

/** The retry job: requested payouts whose transfer outcome is unknown, due now. Returns how many. */
export async function retryPayouts(deps: AppDeps, limit = 20): Promise<number> {
  const db = deps.database.db;
  const due = await db.execute<PayoutRow>(
    sql`select ${payoutColumns} from affiliate_payouts
        where status = 'requested' and next_attempt_at <= now() and provider = ${deps.payments.name}
        order by next_attempt_at limit ${limit}`,
  );
  for (const payout of due.rows) await transfer(deps, payout);
  return due.rows.length;
}
