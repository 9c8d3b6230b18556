// Use cases (vendor): the TradingView access queue, and marking a task done.
import {
  tradingViewMessages as m,
  tradingViewTaskReasonWords,
  type TradingViewTask,
  type TradingViewTaskStatus,
} from '@tradeshelf/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { cursorField, cursorKind, pageOf, timeKey } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries } from '../catalog/index.ts';
import { lockBuyer } from './sync.ts';

interface TaskRow extends Record<string, unknown> {
  id: string;
  kind: 'grant' | 'revoke';
  status: TradingViewTaskStatus;
  username: string;
  product_id: string;
  purchase_id: string;
  expires_at: Date | string | null;
  reason: string;
  created_at: Date | string;
  /** `created_at` at full precision, for the cursor. */
  created_key: string;
  due_at: Date | string | null;
  completed_at: Date | string | null;
  note: string | null;
  scripts: Array<{ id: string; name: string; url: string }>;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const notFound = () => new AppError('not_found', m.taskNotFound);

/**
 * A task's scripts are its grants': while pending, those still waiting on it; once cancelled, all
 * it ever named.
 */
async function taskRows(db: Tx, where: SQL, tail: SQL = sql``): Promise<TaskRow[]> {
  const found = await db.execute<TaskRow>(sql`
    select t.id, t.kind, t.status, t.username, t.product_id, t.purchase_id, t.expires_at, t.reason,
      t.created_at, ${timeKey(sql`t.created_at`)} as created_key, t.due_at, t.completed_at, t.note,
      coalesce((
        select json_agg(json_build_object('id', s.id, 'name', s.name, 'url', s.url)
          order by s.name, s.id)
        from tradingview_grants g join tradingview_scripts s on s.id = g.script_id
        where (t.kind = 'grant' and g.grant_task_id = t.id
            and (t.status = 'cancelled' or g.state <> 'cancelled'))
          or (t.kind = 'revoke' and g.revoke_task_id = t.id
            and (t.status = 'cancelled' or g.state in ('revoking', 'revoked')))
      ), '[]'::json) as scripts
    from tradingview_tasks t
    where ${where}
    ${tail}`);
  return found.rows;
}

async function present(db: Tx, rows: TaskRow[]): Promise<TradingViewTask[]> {
  const titles = await itemSummaries(
    db,
    rows.map((r) => ({ type: 'product' as const, id: r.product_id })),
  );
  const now = Date.now();
  return rows.map((r) => {
    const dueAt = iso(r.due_at);
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      username: r.username,
      scripts: r.scripts,
      product: { id: r.product_id, title: titles.get(`product:${r.product_id}`)?.title ?? '' },
      purchaseId: r.purchase_id,
      expiresAt: iso(r.expires_at),
      reason: r.reason,
      reasonText: tradingViewTaskReasonWords[r.reason] ?? r.reason,
      createdAt: iso(r.created_at)!,
      dueAt,
      overdue: r.status === 'pending' && dueAt !== null && Date.parse(dueAt) <= now,
      completedAt: iso(r.completed_at),
      note: r.note,
    };
  });
}

/** A task's place in the oldest-first queue. */
const TASK_CURSOR = cursorKind('tv-task', [cursorField.time, cursorField.id]);

/** The vendor's queue, oldest first. */
export async function listTasks(
  deps: AppDeps,
  vendorId: string,
  input: { status: TradingViewTaskStatus | 'all'; limit: number; cursor?: string | undefined },
): Promise<{ tasks: TradingViewTask[]; nextCursor: string | null }> {
  const db = deps.database.db;
  const after = input.cursor
    ? (([at, id]) => sql`and (t.created_at, t.id) > (${at}::timestamptz, ${id})`)(
        deps.cursors.decode(TASK_CURSOR, input.cursor),
      )
    : sql``;
  const status = input.status === 'all' ? sql`` : sql`and t.status = ${input.status}`;
  const found = await taskRows(
    db,
    sql`t.vendor_id = ${vendorId} ${status} ${after}`,
    sql`order by t.created_at, t.id limit ${input.limit + 1}`,
  );
  const { page, nextCursor } = pageOf(found, input.limit, (last) =>
    deps.cursors.encode(TASK_CURSOR, [last.created_key, last.id]),
  );
  return { tasks: await present(db, page), nextCursor };
}

/**
 * The vendor did the task on TradingView. Done again changes nothing; a task cancelled meanwhile
 * answers 409 with what to undo.
 */
export async function completeTask(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  taskId: string,
  note: string | undefined,
): Promise<TradingViewTask> {
  const db = deps.database.db;
  await db.transaction(async (tx) => {
    const owner = (
      await tx.execute<{ buyer_id: string }>(sql`select buyer_id from tradingview_tasks
        where id = ${taskId} and vendor_id = ${vendorId}`)
    ).rows[0];
    if (!owner) throw notFound();
    // The buyer's syncs take the same lock: a cancellation and a completion take turns.
    await lockBuyer(tx, owner.buyer_id);
    const task = (
      await tx.execute<{ status: TradingViewTaskStatus; kind: 'grant' | 'revoke' }>(
        sql`select status, kind from tradingview_tasks where id = ${taskId} for update`,
      )
    ).rows[0]!;
    if (task.status === 'cancelled') throw new AppError('conflict', m.taskCancelled);
    if (task.status === 'done') return;
    await tx.execute(sql`update tradingview_tasks set status = 'done', completed_at = now(),
        completed_by = ${userId}, note = ${note || null}
      where id = ${taskId}`);
    await tx.execute(
      task.kind === 'grant'
        ? sql`update tradingview_grants set state = 'active', updated_at = now()
            where grant_task_id = ${taskId} and state = 'granting'`
        : sql`update tradingview_grants set state = 'revoked', updated_at = now()
            where revoke_task_id = ${taskId} and state = 'revoking'`,
    );
  });
  const [row] = await taskRows(db, sql`t.id = ${taskId}`);
  return (await present(db, [row!]))[0]!;
}
