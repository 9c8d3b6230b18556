import { formatDateTime } from '../lib/format.ts';

/**
 * What happened to an access or a licence, newest first (each event's kind by its label, with its
 * detail); a native disclosure (keyboard and screen readers). Nothing when nothing happened.
 */
export function EventHistory<T extends string>({
  items,
  labels,
}: {
  items: readonly { type: T; detail: string; at: string }[];
  labels: Record<T, string>;
}) {
  if (!items.length) return null;
  return (
    <details className="rounded-lg border border-ink-700 bg-ink-950/40">
      <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium text-slate-200 hover:bg-ink-800">
        History ({items.length})
      </summary>
      <ol className="flex flex-col gap-2 px-3 pt-1 pb-3 text-sm">
        {items.map((e, i) => (
          <li key={`${e.at}-${i}`} className="flex flex-col sm:flex-row sm:gap-3">
            <time dateTime={e.at} className="shrink-0 text-xs text-slate-400 sm:w-44 sm:text-sm">
              {formatDateTime(e.at)}
            </time>
            <span>
              <span className="font-semibold text-white">{labels[e.type]}</span>
              {e.detail && <span className="text-slate-300"> · {e.detail}</span>}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}
