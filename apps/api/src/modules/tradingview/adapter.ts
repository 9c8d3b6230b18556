// The port that performs access tasks (ADR 034). Today every vendor's tasks go to the queue
// adapter: a person at the vendor does them on TradingView and marks them done.
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { emailIn } from '../users/index.ts';
import { itemSummaries, vendorUserIds } from '../catalog/index.ts';
import { newTaskMail } from './mail.ts';
import type { NewTask } from './task.ts';

export type { NewTask } from './task.ts';

/**
 * Takes a vendor's new tasks in the transaction that created them and answers the ids of the mails
 * it queued (sent after the commit). An automated adapter would instead queue a job in `tx` that
 * performs each task (a vendor's own bot, or a service with TradingView access) and then marks it
 * done through `completeTask`, exactly as a person does.
 */
export interface TradingViewAccess {
  readonly name: string;
  handOver(tx: Tx, vendorId: string, tasks: readonly NewTask[]): Promise<string[]>;
}

/** The default: the tasks wait in the vendor's queue, and the vendor gets an e-mail per task. */
export function queueAdapter(deps: AppDeps): TradingViewAccess {
  return {
    name: 'queue',
    async handOver(tx, vendorId, tasks) {
      if (!tasks.length) return [];
      const owner = (await vendorUserIds(tx, [vendorId])).get(vendorId);
      const to = owner ? await emailIn(tx, owner) : null;
      if (!to) return [];
      const titles = await itemSummaries(
        tx,
        tasks.map((t) => ({ type: 'product' as const, id: t.productId })),
      );
      const ids: string[] = [];
      for (const task of tasks) {
        const title = titles.get(`product:${task.productId}`)?.title ?? 'A product';
        ids.push(await deps.mailer.enqueue(tx, newTaskMail(deps, to, task, title)));
      }
      return ids;
    },
  };
}

/** The adapter a vendor's tasks go to: the queue, until a vendor plugs in automation. */
export function accessFor(deps: AppDeps, _vendorId: string): TradingViewAccess {
  return queueAdapter(deps);
}
