import type { TradingViewTask } from '@tradeshelf/contract';
import { countLabel } from '../../../lib/format.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, word: string) => countLabel(n, word);

/** "2 days 3 hours", "5 hours", "12 minutes", "less than a minute": the two largest units. */
export function formatSpan(ms: number): string {
  const span = Math.max(0, ms);
  if (span < MINUTE) return 'less than a minute';
  const days = Math.floor(span / DAY);
  const hours = Math.floor((span % DAY) / HOUR);
  const minutes = Math.floor((span % HOUR) / MINUTE);
  if (days) return hours ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  if (hours) return plural(hours, 'hour');
  return plural(minutes, 'minute');
}

export interface TaskTiming {
  /** Past its due time and not done (the server's flag, or the clock since it answered). */
  overdue: boolean;
  /** "Overdue by 2 days 3 hours", "Due in 5 hours", "Waiting 3 hours", or null once done. */
  text: string | null;
}

/**
 * How urgent a pending task is. A revocation is due at `dueAt`; the clock is checked here too so a
 * page left open turns a task overdue without a reload. A grant has no due time: how long the buyer
 * has waited is what matters.
 */
export function taskTiming(
  task: Pick<TradingViewTask, 'status' | 'dueAt' | 'overdue' | 'createdAt'>,
  now: number,
): TaskTiming {
  if (task.status !== 'pending') return { overdue: false, text: null };
  if (task.dueAt) {
    const due = Date.parse(task.dueAt);
    if (task.overdue || due <= now)
      return { overdue: true, text: `Overdue by ${formatSpan(now - due)}` };
    return { overdue: false, text: `Due in ${formatSpan(due - now)}` };
  }
  return { overdue: task.overdue, text: `Waiting ${formatSpan(now - Date.parse(task.createdAt))}` };
}

/** The hub's line for the queue: what is pending and what is overdue, in words. */
export function queueSummary(
  tasks: ReadonlyArray<
    Pick<TradingViewTask, 'status' | 'dueAt' | 'overdue' | 'createdAt' | 'kind'>
  >,
  more: boolean,
  now: number,
): { tone: 'ok' | 'attention'; text: string } {
  const pending = tasks.filter((t) => t.status === 'pending');
  if (!pending.length) return { tone: 'ok', text: 'No access changes waiting.' };
  const overdue = pending.filter((t) => taskTiming(t, now).overdue).length;
  const grants = pending.filter((t) => t.kind === 'grant').length;
  const revokes = pending.length - grants;
  const count = `${pending.length}${more ? '+' : ''}`;
  const parts = [
    grants ? plural(grants, 'grant') : null,
    revokes ? plural(revokes, 'revocation') : null,
  ].filter(Boolean);
  const base = `${count} pending (${parts.join(', ')})`;
  return {
    tone: 'attention',
    text: overdue ? `${base}, ${overdue} overdue.` : `${base}.`,
  };
}
