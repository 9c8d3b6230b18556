import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A buyer's page with nothing on it yet: what will show here, and the way to find some. */
export function NothingYet({
  title,
  note,
  to,
  action,
  testId,
}: {
  title: ReactNode;
  /** What shows up here once bought. */
  note?: ReactNode;
  to: string;
  action: string;
  testId?: string;
}) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center gap-3 rounded-2xl border border-ink-700 bg-ink-900 px-6 py-12 text-center"
    >
      <p className="text-lg font-semibold text-white">{title}</p>
      {note && <p className="text-sm text-slate-400">{note}</p>}
      <Link
        to={to}
        className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
      >
        {action}
      </Link>
    </div>
  );
}
