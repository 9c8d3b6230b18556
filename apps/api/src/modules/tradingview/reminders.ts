// Use case (scheduled): remind vendors, once per task, of revocations left undone past their due time.
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { itemSummaries, vendorUserIds } from '../catalog/index.ts';
import { emailIn } from '../users/index.ts';
import { reminderMail } from './mail.ts';

/** Answers how many tasks it reminded of. `now` lets a test stand a day later. */
export async function remindOverdue(deps: AppDeps, now = new Date()): Promise<number> {
  let reminded = 0;
  const mails = await deps.database.db.transaction(async (tx) => {
    // Skip locked: two workers never remind of one task twice.
    const due = (
      await tx.execute<{
        id: string;
        vendor_id: string;
        username: string;
        product_id: string;
        created_at: Date | string;
      }>(sql`select id, vendor_id, username, product_id, created_at from tradingview_tasks
        where status = 'pending' and kind = 'revoke' and reminder_sent_at is null
          and due_at <= ${now.toISOString()}::timestamptz
        order by due_at, id limit 500
        for update skip locked`)
    ).rows;
    if (!due.length) return [];
    await tx.execute(sql`update tradingview_tasks set reminder_sent_at = now()
      where id = any(${sql.param(due.map((d) => d.id))}::text[])`);
    reminded = due.length;
    const owners = await vendorUserIds(
      tx,
      due.map((d) => d.vendor_id),
    );
    const titles = await itemSummaries(
      tx,
      due.map((d) => ({ type: 'product' as const, id: d.product_id })),
    );
    const ids: string[] = [];
    for (const [vendorId, owner] of owners) {
      const to = await emailIn(tx, owner);
      if (!to) continue;
      const overdue = due
        .filter((d) => d.vendor_id === vendorId)
        .map((d) => ({
          id: d.id,
          username: d.username,
          productTitle: titles.get(`product:${d.product_id}`)?.title ?? 'a product',
          createdAt: new Date(d.created_at),
        }));
      ids.push(await deps.mailer.enqueue(tx, reminderMail(deps, to, overdue)));
    }
    return ids;
  });
  await deps.mailer.dispatch(mails);
  return reminded;
}
