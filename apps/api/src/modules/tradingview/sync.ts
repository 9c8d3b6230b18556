// Use case: bring one buyer's TradingView grants to what their access wants (ADR 034). Desired: every
// script of every product the buyer has live access to, for the username they gave. Actual: the
// grants. The difference becomes tasks for the vendor; running it again with nothing changed does
// nothing.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { accessOf } from '../access/index.ts';
import { accessFor, type NewTask } from './adapter.ts';

type Script = { id: string; name: string; url: string };
interface Binding extends Record<string, unknown> {
  product_id: string;
  script_id: string;
  vendor_id: string;
  name: string;
  url: string;
}
interface GrantRow extends Record<string, unknown> {
  id: string;
  entitlement_id: string;
  script_id: string;
  username: string;
  state: 'granting' | 'active' | 'revoking' | 'revoked' | 'cancelled';
  grant_task_id: string;
  revoke_task_id: string | null;
  vendor_id: string;
  name: string;
  url: string;
}

const ids = (list: readonly string[]) => sql.param([...new Set(list)]);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether any of these products delivers a script: one indexed look-up. */
export async function anyBound(tx: Tx, productIds: readonly string[]): Promise<boolean> {
  if (!productIds.length) return false;
  const found = await tx.execute<{ bound: boolean }>(sql`select exists (
    select 1 from tradingview_product_scripts where product_id = any(${ids(productIds)}::text[])
  ) as bound`);
  return Boolean(found.rows[0]?.bound);
}

/** The scripts each of these products delivers, with their vendor. */
export async function bindingsOf(tx: Tx, productIds: readonly string[]): Promise<Binding[]> {
  if (!productIds.length) return [];
  const found = await tx.execute<Binding>(sql`
    select ps.product_id, s.id as script_id, s.vendor_id, s.name, s.url
    from tradingview_product_scripts ps join tradingview_scripts s on s.id = ps.script_id
    where ps.product_id = any(${ids(productIds)}::text[])
    order by s.name, s.id`);
  return found.rows;
}

/**
 * Serialises everything that changes one buyer's grants (syncs, completions) until the transaction
 * ends, so two syncs never both see a grant missing and a completion never races a cancellation.
 */
export async function lockBuyer(tx: Tx, buyerId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`tradingview:${buyerId}`}, 0))`,
  );
}

/**
 * Runs in the caller's transaction (the payment's, for orders' events) and answers the ids of the
 * vendor mails it queued, to send once that transaction commits.
 */
export async function syncBuyer(deps: AppDeps, tx: Tx, buyerId: string): Promise<string[]> {
  await lockBuyer(tx, buyerId);
  const username =
    (
      await tx.execute<{ username: string }>(
        sql`select username from tradingview_usernames where user_id = ${buyerId}`,
      )
    ).rows[0]?.username ?? null;
  const entitlements = await accessOf(tx, buyerId);
  const bindings = await bindingsOf(
    tx,
    entitlements.map((e) => e.productId),
  );
  const grants = (
    await tx.execute<GrantRow>(sql`
      select g.id, g.entitlement_id, g.script_id, g.username, g.state, g.grant_task_id,
        g.revoke_task_id, s.vendor_id, s.name, s.url
      from tradingview_grants g join tradingview_scripts s on s.id = g.script_id
      where g.user_id = ${buyerId}
      order by g.created_at, g.id`)
  ).rows;
  if (!bindings.length && !grants.length) return [];

  const now = Date.now();
  const byId = new Map(entitlements.map((e) => [e.id, e]));
  const isLive = (id: string) => {
    const e = byId.get(id);
    return Boolean(e && e.status === 'active' && (!e.endsAt || e.endsAt.getTime() > now));
  };
  const scriptsOf = new Map<string, Binding[]>();
  for (const b of bindings)
    scriptsOf.set(b.product_id, [...(scriptsOf.get(b.product_id) ?? []), b]);

  // One grant per script and name, whichever purchase wants it: a buyer holding two products that
  // deliver one script keeps it until neither does. The entitlement that lasts longest carries it.
  const desired = new Map<string, { entitlementId: string; binding: Binding }>();
  const lasts = (id: string) => byId.get(id)!.endsAt?.getTime() ?? Infinity;
  if (username)
    for (const e of entitlements)
      if (isLive(e.id))
        for (const b of scriptsOf.get(e.productId) ?? []) {
          const held = desired.get(b.script_id);
          if (!held || lasts(e.id) > lasts(held.entitlementId))
            desired.set(b.script_id, { entitlementId: e.id, binding: b });
        }

  const covered = new Set<string>();
  const restore: GrantRow[] = [];
  const repoint: Array<{ id: string; entitlementId: string }> = [];
  const cancel: GrantRow[] = [];
  const revoke = new Map<string, GrantRow[]>();
  for (const g of grants) {
    if (g.state === 'revoked' || g.state === 'cancelled') continue;
    const wanted = username && same(g.username, username) ? desired.get(g.script_id) : undefined;
    if (wanted) {
      covered.add(g.script_id);
      if (wanted.entitlementId !== g.entitlement_id)
        repoint.push({ id: g.id, entitlementId: wanted.entitlementId });
      // Wanted again before the vendor removed it (a name changed back): nothing to take away.
      if (g.state === 'revoking') restore.push(g);
      continue;
    }
    // Not given yet: the grant task loses this script (and goes when it has none left).
    if (g.state === 'granting') cancel.push(g);
    else if (g.state === 'active') {
      const group = `${g.entitlement_id} ${g.username.toLowerCase()}`;
      revoke.set(group, [...(revoke.get(group) ?? []), g]);
    }
  }
  const grant = new Map<string, Binding[]>();
  for (const [scriptId, d] of desired)
    if (!covered.has(scriptId))
      grant.set(d.entitlementId, [...(grant.get(d.entitlementId) ?? []), d.binding]);

  for (const r of repoint)
    await tx.execute(sql`update tradingview_grants set entitlement_id = ${r.entitlementId},
      updated_at = now() where id = ${r.id}`);
  if (restore.length)
    await tx.execute(sql`update tradingview_grants set state = 'active', updated_at = now()
      where id = any(${ids(restore.map((g) => g.id))}::text[])`);
  if (cancel.length)
    await tx.execute(sql`update tradingview_grants set state = 'cancelled', updated_at = now()
      where id = any(${ids(cancel.map((g) => g.id))}::text[])`);
  const touched = [...restore.map((g) => g.revoke_task_id!), ...cancel.map((g) => g.grant_task_id)];
  if (touched.length)
    await tx.execute(sql`update tradingview_tasks t set status = 'cancelled', cancelled_at = now()
      where t.id = any(${ids(touched)}::text[]) and t.status = 'pending'
        and not exists (select 1 from tradingview_grants g
          where (g.grant_task_id = t.id and g.state = 'granting')
             or (g.revoke_task_id = t.id and g.state = 'revoking'))`);

  const created: NewTask[] = [];
  const graceMs = deps.config.TRADINGVIEW_REVOKE_GRACE_HOURS * 3_600_000;
  for (const group of revoke.values()) {
    const first = group[0]!;
    const e = byId.get(first.entitlement_id)!;
    const reason = !isLive(e.id)
      ? (e.endedReason ?? 'ended')
      : username && !same(first.username, username)
        ? 'username_changed'
        : 'scripts_changed';
    const task: NewTask = {
      id: newId('tvt'),
      vendorId: first.vendor_id,
      kind: 'revoke',
      username: first.username,
      productId: e.productId,
      scripts: group.map((g) => ({ id: g.script_id, name: g.name, url: g.url })),
      expiresAt: null,
      dueAt: new Date(now + graceMs),
      reason,
    };
    await insertTask(tx, buyerId, e.id, e.purchaseId, task);
    await tx.execute(sql`update tradingview_grants
      set state = 'revoking', revoke_task_id = ${task.id}, updated_at = now()
      where id = any(${ids(group.map((g) => g.id))}::text[])`);
    created.push(task);
  }
  for (const [entitlementId, wanted] of grant) {
    const e = byId.get(entitlementId)!;
    const before = grants.filter((g) => g.entitlement_id === entitlementId);
    const reason = before.some((g) => !same(g.username, username!))
      ? 'username_changed'
      : before.length
        ? 'scripts_changed'
        : 'new_access';
    const task: NewTask = {
      id: newId('tvt'),
      vendorId: wanted[0]!.vendor_id,
      kind: 'grant',
      username: username!,
      productId: e.productId,
      scripts: wanted.map((b): Script => ({ id: b.script_id, name: b.name, url: b.url })),
      expiresAt: e.endsAt,
      dueAt: null,
      reason,
    };
    await insertTask(tx, buyerId, e.id, e.purchaseId, task);
    const rows = wanted.map(
      (b) =>
        sql`(${newId('tvg')}, ${entitlementId}, ${buyerId}, ${b.script_id}, ${username}, 'granting', ${task.id})`,
    );
    await tx.execute(sql`insert into tradingview_grants
        (id, entitlement_id, user_id, script_id, username, state, grant_task_id)
      values ${sql.join(rows, sql`, `)}`);
    created.push(task);
  }

  // A grant not done yet carries the access's end: a subscription cancelled meanwhile dates it.
  const live = entitlements.filter((e) => isLive(e.id) && scriptsOf.has(e.productId));
  if (live.length)
    await tx.execute(sql`update tradingview_tasks t set expires_at = v.ends_at
      from unnest(${ids(live.map((e) => e.id))}::text[],
        ${sql.param(live.map((e) => e.endsAt?.toISOString() ?? null))}::timestamptz[]) as v(id, ends_at)
      where t.entitlement_id = v.id and t.kind = 'grant' and t.status = 'pending'
        and t.expires_at is distinct from v.ends_at`);

  const mails: string[] = [];
  const vendors = new Set(created.map((t) => t.vendorId));
  for (const vendorId of vendors)
    mails.push(
      ...(await accessFor(deps, vendorId).handOver(
        tx,
        vendorId,
        created.filter((t) => t.vendorId === vendorId),
      )),
    );
  return mails;
}

async function insertTask(
  tx: Tx,
  buyerId: string,
  entitlementId: string,
  purchaseId: string,
  t: NewTask,
): Promise<void> {
  // clock_timestamp(): tasks made by one sync keep their order in the queue (revoke, then grant).
  await tx.execute(sql`insert into tradingview_tasks (id, vendor_id, buyer_id, entitlement_id,
      purchase_id, product_id, kind, username, expires_at, reason, due_at, created_at)
    values (${t.id}, ${t.vendorId}, ${buyerId}, ${entitlementId}, ${purchaseId}, ${t.productId},
      ${t.kind}, ${t.username}, ${t.expiresAt?.toISOString() ?? null}, ${t.reason},
      ${t.dueAt?.toISOString() ?? null}, clock_timestamp())`);
}

/** A sync in a transaction of its own, its mails sent after the commit (jobs, the buyer's edits). */
export async function syncNow(deps: AppDeps, buyerId: string): Promise<void> {
  const mails = await deps.database.db.transaction((tx) => syncBuyer(deps, tx, buyerId));
  await deps.mailer.dispatch(mails);
}
