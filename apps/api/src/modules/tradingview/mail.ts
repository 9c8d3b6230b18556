// The vendor's e-mails: one per new task, and one reminder when revocations are overdue.
import { tradingViewTaskReasonWords, utcDayLabel } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import type { OutgoingMail } from '../../integrations/mail/mailer.ts';
import { publicOrigin } from '../../platform/origin.ts';
import type { NewTask } from './task.ts';

const queueUrl = (deps: AppDeps) => `${publicOrigin(deps.config)}/api/v1/vendor/tradingview/tasks`;

const scriptLines = (scripts: NewTask['scripts']) => scripts.map((s) => `- ${s.name}: ${s.url}`);

export function newTaskMail(
  deps: AppDeps,
  to: string,
  task: NewTask,
  productTitle: string,
): OutgoingMail {
  const grant = task.kind === 'grant';
  const lines = [
    `${productTitle}: ${tradingViewTaskReasonWords[task.reason] ?? task.reason}.`,
    '',
    grant
      ? `Add the TradingView user "${task.username}" to these invite-only scripts:`
      : `Remove the TradingView user "${task.username}" from these invite-only scripts:`,
    ...scriptLines(task.scripts),
    '',
    ...(grant
      ? [
          task.expiresAt
            ? `Set the access to expire on ${utcDayLabel(task.expiresAt)} (the paid period ends then).`
            : 'No expiry: the access lasts as long as the purchase. We will ask you to remove it if that ends.',
        ]
      : task.dueAt
        ? [`Please do it by ${utcDayLabel(task.dueAt)}; we will remind you once after that.`]
        : []),
    '',
    `Then mark the task done in your access queue (task ${task.id}): ${queueUrl(deps)}`,
  ];
  return {
    to,
    subject: grant
      ? `TradingView: add ${task.username} to ${productTitle}`
      : `TradingView: remove ${task.username} from ${productTitle}`,
    text: lines.join('\n'),
  };
}

export interface OverdueTask {
  id: string;
  username: string;
  productTitle: string;
  createdAt: Date;
}

export function reminderMail(deps: AppDeps, to: string, overdue: readonly OverdueTask[]) {
  const n = overdue.length;
  const lines = [
    n === 1
      ? 'A buyer’s TradingView access should have been removed by now:'
      : `${n} buyers’ TradingView access should have been removed by now:`,
    ...overdue.map(
      (t) =>
        `- "${t.username}" from ${t.productTitle} (asked on ${utcDayLabel(t.createdAt)}, task ${t.id})`,
    ),
    '',
    'Remove them on TradingView (the script’s page → Manage access), then mark each task done:',
    queueUrl(deps),
  ];
  return {
    to,
    subject:
      n === 1
        ? `Reminder: remove ${overdue[0]!.username} on TradingView`
        : `Reminder: ${n} TradingView revocations are overdue`,
    text: lines.join('\n'),
  };
}
