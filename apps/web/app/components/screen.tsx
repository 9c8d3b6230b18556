// The one shape of a screen that reads something: loading (a skeleton), a failed read with Try
// again, empty, or its content. Workspace and buyer screens both use it.
import type { ApiError } from '@tradeshelf/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from './ui.tsx';

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/** Skeleton heights: a line, a row, a card, a panel, a page section, a video. */
const heights = {
  line: 'h-12',
  row: 'h-16',
  card: 'h-24',
  panel: 'h-40',
  page: 'h-64',
  video: 'aspect-video',
} as const;
export type SkeletonSize = keyof typeof heights;

/** Side by side from the small or large breakpoint up (cards, charts). */
const grids = { 2: 'grid gap-4 lg:grid-cols-2', 4: 'grid gap-3 sm:grid-cols-2 lg:grid-cols-4' };

/**
 * A skeleton while something loads: `rows` blocks of `size`, announced by `label`; in a grid of
 * `columns` when what loads is laid out so.
 */
export function Loading({
  label,
  size = 'panel',
  rows = 1,
  columns,
}: {
  label: string;
  size?: SkeletonSize;
  rows?: number;
  columns?: keyof typeof grids;
}) {
  return (
    <div
      aria-busy="true"
      className={`animate-pulse ${columns ? grids[columns] : 'flex flex-col gap-3'}`}
    >
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={`${heights[size]} rounded-2xl bg-ink-800`} />
      ))}
    </div>
  );
}

/** A failed read: its words and a way to try again. */
export function ReadError({
  error,
  onRetry,
  fallback = 'We could not load this.',
}: {
  error: ApiError | null;
  onRetry: () => void;
  fallback?: string;
}) {
  return (
    <Alert>
      <span>{error?.error ?? fallback}</span>{' '}
      <button type="button" className={`font-semibold underline ${focusRing}`} onClick={onRetry}>
        Try again
      </button>
    </Alert>
  );
}

/** What a read is: the shape of `RequestState` (slices) and of the workspace's `useRead`. */
export interface ReadShape<T> {
  status: 'idle' | 'loading' | 'success' | 'failure';
  data: T | null;
  error: ApiError | null;
}

/**
 * Loading until the first answer, the failure with Try again, `empty` when `isEmpty(data)`, else
 * `children(data)`. A failed reload keeps what was read and says so above it.
 */
export function Screen<T>({
  read,
  onRetry,
  loading,
  size,
  rows,
  columns,
  empty,
  isEmpty,
  children,
}: {
  read: ReadShape<T>;
  onRetry: () => void;
  /** What the skeleton announces ("Loading your apps…"). */
  loading: string;
  size?: SkeletonSize;
  rows?: number;
  columns?: 2 | 4;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { data } = read;
  const failed = read.status === 'failure';
  if (data === null)
    return failed ? (
      <ReadError error={read.error} onRetry={onRetry} />
    ) : (
      <Loading
        label={loading}
        {...(size ? { size } : {})}
        {...(rows ? { rows } : {})}
        {...(columns ? { columns } : {})}
      />
    );
  return (
    <>
      {failed && <ReadError error={read.error} onRetry={onRetry} />}
      {empty !== undefined && isEmpty?.(data) ? empty : children(data)}
    </>
  );
}

/** The way back from a screen to the list or page it was opened from: `← {children}`. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={`text-sm text-slate-400 hover:text-white ${focusRing}`}>
      ← {children}
    </Link>
  );
}
