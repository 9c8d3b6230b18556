import type { ReactNode } from 'react';

// The one table of list screens (products, bundles, sales, customers, an affiliate's sales): a frame that scrolls
// sideways on small screens, the column headings, and the rows the screen gives.

export interface ListColumn {
  label: string;
  /** Numbers line up on the right. */
  align?: 'right';
  /** A heading only screen readers say (a column of links, say). */
  hidden?: boolean;
}

/** The cell padding of a list table's rows, for the screens' own `<td>`s. */
export const cell = 'px-4 py-3';

/** A table's heading row: `cell` is the headings' padding, numbers line up on the right. */
function ColumnHeads({ columns, cell }: { columns: readonly ListColumn[]; cell: string }) {
  return (
    <tr>
      {columns.map((c) => (
        <th key={c.label} scope="col" className={c.align === 'right' ? `${cell} text-right` : cell}>
          {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
        </th>
      ))}
    </tr>
  );
}

export function ListTable({
  columns,
  busy,
  minWidth = '',
  testId,
  children,
}: {
  columns: readonly ListColumn[];
  /** True while the next page loads: the rows shown are the last page's. */
  busy?: boolean;
  /** A Tailwind min-width class, for tables that would squash below it. */
  minWidth?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    // relative: a heading's sr-only text is placed against this scroller, not the page.
    <div className="relative overflow-x-auto rounded-2xl border border-ink-700" aria-busy={busy}>
      <table className={`w-full text-left text-sm ${minWidth}`} data-testid={testId}>
        <thead className="bg-ink-900 text-xs tracking-wide text-slate-400 uppercase">
          <ColumnHeads columns={columns} cell={cell} />
        </thead>
        <tbody className="divide-y divide-ink-800">{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A small table inside a panel (a sale's payments, a programme's affiliates): no frame of its own,
 * a caption for screen readers, the column headings and the rows the screen gives.
 */
export function PanelTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly ListColumn[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs tracking-wide text-slate-400 uppercase">
          <ColumnHeads columns={columns} cell="py-2 pr-4 font-medium last:pr-0" />
        </thead>
        <tbody className="divide-y divide-ink-800 text-slate-200">{children}</tbody>
      </table>
    </div>
  );
}
