import type { ApiError } from '@tradeshelf/contract';
import { useCallback, useState, type ReactNode } from 'react';
import { Screen, type ReadShape } from './screen.tsx';
import { Alert, Button } from './ui.tsx';

// The one pager of list screens: cursor pages with Previous and Next, or Load more for lists that
// grow in place (the workspace's `usePaged`).

/** Cursor pages: the cursors of the pages seen, so "Previous" goes back without a new cursor kind. */
export function useCursorPages() {
  const [stack, setStack] = useState<string[]>([]);
  const cursor = stack[stack.length - 1];
  const next = useCallback((c: string) => setStack((s) => [...s, c]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor, page: stack.length + 1, next, previous, reset };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

/** Previous and Next over `pages`; nothing when there is one page. */
export function Pager({
  pages,
  nextCursor,
  busy,
}: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  busy: boolean;
}) {
  const { page, next: onNext, previous: onPrevious } = pages;
  if (page === 1 && !nextCursor) return null;
  return (
    <nav aria-label="Pages" className="flex items-center gap-3">
      <Button type="button" variant="ghost" disabled={page === 1 || busy} onClick={onPrevious}>
        Previous
      </Button>
      <span className="text-sm text-slate-400">Page {page}</span>
      <Button
        type="button"
        variant="ghost"
        disabled={!nextCursor || busy}
        onClick={() => nextCursor && onNext(nextCursor)}
      >
        Next
      </Button>
    </nav>
  );
}

/** A list that grows in place (the workspace's `usePaged`). */
export interface GrowingList<T> {
  status: ReadShape<T[]>['status'];
  error: ApiError | null;
  items: T[];
  reload: () => unknown;
  nextCursor: string | null;
  loadMore: () => Promise<void>;
  loadingMore: boolean;
  moreError: ApiError | null;
}

export function LoadMore({
  list,
  noun,
}: {
  list: Pick<GrowingList<unknown>, 'nextCursor' | 'loadMore' | 'loadingMore' | 'moreError'>;
  noun: string;
}) {
  if (!list.nextCursor) return null;
  return (
    <div className="flex flex-col items-start gap-2">
      {list.moreError && <Alert>{list.moreError.error}</Alert>}
      <Button
        type="button"
        variant="ghost"
        loading={list.loadingMore}
        onClick={() => void list.loadMore()}
      >
        Load more {noun}
      </Button>
    </div>
  );
}

/**
 * A growing list as a `Screen`: the skeleton until the first page, the failure with Try again,
 * `empty` when there is nothing, else `children(items)` and Load more.
 */
export function GrowingScreen<T>({
  list,
  noun,
  loading,
  empty,
  children,
}: {
  list: GrowingList<T>;
  /** What Load more loads ("reviews"). */
  noun: string;
  loading: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const read: ReadShape<T[]> = {
    status: list.status,
    error: list.error,
    data: list.status === 'success' || list.items.length ? list.items : null,
  };
  return (
    <Screen
      read={read}
      onRetry={() => void list.reload()}
      loading={loading}
      empty={empty}
      isEmpty={(items) => items.length === 0}
    >
      {(items) => (
        <>
          {children(items)}
          <LoadMore list={list} noun={noun} />
        </>
      )}
    </Screen>
  );
}
