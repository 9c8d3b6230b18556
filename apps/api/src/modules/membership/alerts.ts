import { formatMoney, type ProductCard, productPath } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { newestPublishedAt, productCardsById, search } from '../catalog/index.ts';
import * as users from '../users/index.ts';
import { rows, type SavedSearchRow } from './repository.ts';
import { currentPlan, type CurrentPlan } from './status.ts';
import { unsubscribeToken } from './unsubscribe.ts';

/**
 * How far behind the clock matching runs: a product whose transaction started before a run but
 * committed after it would otherwise fall between two runs.
 */
export const ALERT_SETTLE_MS = 60_000;
/** Saved searches matched per run, and members mailed per run; the rest wait for the next run. */
const BATCH = 500;
/** New matches one search can report per run (the newest first). */
const PER_SEARCH = 50;
/** Products one alert e-mail lists; more are counted. */
const MAIL_LIST_MAX = 20;

/**
 * The saved-search alert job (every 5 minutes). First each due saved search of a member is matched
 * against products published since it last looked, through the catalogue's own search (typos,
 * synonyms, filters), and each match is recorded once. Then each member with matches not yet
 * mailed gets one e-mail, within their plan's daily cap; matches over the cap wait for the next day.
 * Recording a match and mailing it are idempotent, so overlapping runs send nothing twice.
 */
export async function runSavedSearchAlerts(
  deps: AppDeps,
  now: Date = new Date(),
): Promise<{ matched: number; mailed: number }> {
  const until = new Date(now.getTime() - ALERT_SETTLE_MS);
  const plans = new Map<string, CurrentPlan | null>();
  const planOf = async (userId: string) => {
    if (!plans.has(userId)) plans.set(userId, await currentPlan(deps, userId));
    return plans.get(userId)!;
  };
  const matched = await matchNewProducts(deps, until, planOf);
  const mailed = await mailMatches(deps, until, planOf);
  return { matched, mailed };
}

async function matchNewProducts(
  deps: AppDeps,
  until: Date,
  planOf: (userId: string) => Promise<CurrentPlan | null>,
): Promise<number> {
  const db = deps.database.db;
  const due = await rows<SavedSearchRow>(
    db,
    sql`select id, user_id, name, q, category, kind, platform, min_price, max_price, alerts,
          checked_until, created_at
        from saved_searches where alerts and checked_until < ${until}
        order by checked_until limit ${BATCH}`,
  );
  if (!due.length) return 0;
  const newest = await newestPublishedAt(deps);
  let matched = 0;
  for (const s of due) {
    const since = new Date(s.checked_until);
    // Nothing new, or no plan (a lapsed member is not caught up with old products on rejoining).
    if (newest && newest > since && (await planOf(s.user_id))) {
      const found = await search(
        deps,
        null,
        {
          q: s.q,
          ...(s.category ? { category: s.category } : {}),
          ...(s.kind ? { kind: s.kind } : {}),
          ...(s.platform ? { platform: s.platform } : {}),
          ...(s.min_price !== null ? { minPrice: s.min_price } : {}),
          ...(s.max_price !== null ? { maxPrice: s.max_price } : {}),
          sort: 'newest',
          limit: PER_SEARCH,
        },
        { fresh: true },
      );
      const fresh = found.products.filter((p) => {
        const at = new Date(p.createdAt);
        return at > since && at <= until;
      });
      if (fresh.length) {
        const values = fresh.map((p) => sql`(${s.id}, ${p.id}, ${s.user_id})`);
        const inserted =
          await db.execute(sql`insert into saved_search_hits (saved_search_id, product_id, user_id)
          values ${sql.join(values, sql`, `)} on conflict do nothing returning product_id`);
        matched += inserted.rows.length;
      }
    }
    await db.execute(sql`update saved_searches set checked_until = greatest(checked_until, ${until})
      where id = ${s.id}`);
  }
  return matched;
}

async function mailMatches(
  deps: AppDeps,
  until: Date,
  planOf: (userId: string) => Promise<CurrentPlan | null>,
): Promise<number> {
  const db = deps.database.db;
  const members = await rows<{ user_id: string }>(
    db,
    sql`select distinct h.user_id from saved_search_hits h
        join saved_searches s on s.id = h.saved_search_id
        where h.mailed_at is null and s.alerts limit ${BATCH}`,
  );
  const day = until.toISOString().slice(0, 10);
  let mailed = 0;
  for (const { user_id: userId } of members) {
    const current = await planOf(userId);
    if (!current) {
      // The plan lapsed after the match: the grant is gone, and so are its pending alerts.
      await db.execute(
        sql`delete from saved_search_hits where user_id = ${userId} and mailed_at is null`,
      );
      continue;
    }
    const email = await users.emailOf(deps, userId);
    if (!email) continue;
    // The cards are read before the transaction: the catalogue reads on a connection of its own, and
    // inside the transaction that waited for ever on the embedded database's single connection.
    const pending = await rows<{ product_id: string }>(
      db,
      sql`select distinct h.product_id from saved_search_hits h
          join saved_searches s on s.id = h.saved_search_id
          where h.user_id = ${userId} and h.mailed_at is null and s.alerts`,
    );
    const looked = new Set(pending.map((p) => p.product_id));
    const cards = new Map(
      (await productCardsById(deps, [...looked])).map((c) => [c.id, c] as const),
    );
    const mailId = await db.transaction(async (tx) => {
      await tx.execute(sql`insert into alert_mail_days (user_id, day) values (${userId}, ${day})
        on conflict do nothing`);
      // The member's counter row, locked: runs at once mail one after the other, and the second
      // finds the matches already mailed.
      const [counter] = await rows<{ mails: number }>(
        tx,
        sql`select mails from alert_mail_days where user_id = ${userId} and day = ${day} for update`,
      );
      if (counter!.mails >= current.plan.alertMailsPerDay) return null;
      // Matches recorded since the cards were read wait for the next run.
      const hits = (
        await rows<{ saved_search_id: string; product_id: string; name: string }>(
          tx,
          sql`select h.saved_search_id, h.product_id, s.name from saved_search_hits h
            join saved_searches s on s.id = h.saved_search_id
            where h.user_id = ${userId} and h.mailed_at is null and s.alerts
            order by h.created_at, h.product_id`,
        )
      ).filter((h) => looked.has(h.product_id));
      if (!hits.length) return null;
      await tx.execute(sql`update saved_search_hits set mailed_at = now()
        where user_id = ${userId} and mailed_at is null
          and (saved_search_id, product_id) in (${sql.join(
            hits.map((h) => sql`(${h.saved_search_id}, ${h.product_id})`),
            sql`, `,
          )})`);
      const listed = hits.filter((h) => cards.has(h.product_id));
      // Every match was withdrawn before we mailed it: nothing to say.
      if (!listed.length) return null;
      await tx.execute(sql`update alert_mail_days set mails = mails + 1
        where user_id = ${userId} and day = ${day}`);
      return deps.mailer.enqueue(tx, alertMail(deps, email, listed, cards));
    });
    if (mailId) {
      await deps.mailer.dispatch([mailId]);
      mailed++;
    }
  }
  return mailed;
}

const money = (p: ProductCard['price']) => formatMoney(p.amount, p.currency, 'code');

function alertMail(
  deps: AppDeps,
  to: string,
  hits: Array<{ saved_search_id: string; product_id: string; name: string }>,
  cards: Map<string, ProductCard>,
) {
  const origin = publicOrigin(deps.config);
  const bySearch = new Map<string, { name: string; products: ProductCard[] }>();
  for (const h of hits) {
    const group = bySearch.get(h.saved_search_id) ?? { name: h.name, products: [] };
    group.products.push(cards.get(h.product_id)!);
    bySearch.set(h.saved_search_id, group);
  }
  const lines: string[] = ['New products on Tradeshelf match your saved searches.', ''];
  let listed = 0;
  for (const [id, group] of bySearch) {
    lines.push(`"${group.name}":`);
    for (const p of group.products) {
      if (listed++ >= MAIL_LIST_MAX) continue;
      lines.push(
        `- ${p.title} by ${p.vendor.displayName}, ${money(p.price)}: ${origin}${productPath(p)}`,
      );
    }
    lines.push(
      `Stop alerts for "${group.name}": ${origin}/alerts/unsubscribe?token=${unsubscribeToken(deps, id)}`,
      '',
    );
  }
  if (listed > MAIL_LIST_MAX) lines.push(`And ${listed - MAIL_LIST_MAX} more on Tradeshelf.`, '');
  lines.push(`Manage your saved searches: ${origin}/account#saved-searches`);
  const count = hits.length;
  return {
    to,
    subject:
      count === 1
        ? `New on Tradeshelf: ${cards.get(hits[0]!.product_id)!.title}`
        : `${count} new products match your saved searches`,
    text: lines.join('\n'),
  };
}
