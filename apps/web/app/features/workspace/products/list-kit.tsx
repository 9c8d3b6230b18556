import type { ReactNode } from 'react';
import { Link } from 'react-router';

// What the product and bundle lists share: their heading with the New button, their filters and
// their empty state.

const newLink =
  'rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400';

/** The list's title (and a line under it), with the way to a new draft. */
export function ListHeading({
  title,
  intro,
  newPath,
  newLabel,
}: {
  title: string;
  intro?: string;
  newPath: string;
  newLabel: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        {intro && <p className="text-sm text-slate-400">{intro}</p>}
      </div>
      <Link to={newPath} className={newLink}>
        {newLabel}
      </Link>
    </div>
  );
}

/** A filter of the list: All, or one of `options` by its label. Choosing one starts at page 1. */
export function FilterSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T | '';
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T | '') => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      {label}
      <select
        className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-slate-100 focus:border-brand-400"
        value={value}
        onChange={(e) => onChange(e.target.value as T | '')}
      >
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Nothing to list: `filtered` says so for the filters, else the way to the first draft. */
export function NoListings({
  filtered,
  noun,
  newPath,
}: {
  /** What to say when filters hid everything; null when no filter is on. */
  filtered: ReactNode | null;
  noun: 'product' | 'bundle';
  newPath: string;
}) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      {filtered ? (
        <p className="text-slate-300">{filtered}</p>
      ) : (
        <>
          <p className="text-slate-300">
            You have no {noun}s yet. Start with a draft: nobody sees it until you publish.
          </p>
          <Link to={newPath} className={newLink}>
            Create your first {noun}
          </Link>
        </>
      )}
    </div>
  );
}
