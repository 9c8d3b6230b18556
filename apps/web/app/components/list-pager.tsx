import type { ApiError } from '@tradeshelf/contract';
import { useCallback, useState } from 'react';
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

export function LoadMore({
  list,
  noun,
}: {
  list: {
    nextCursor: string | null;
    loadMore: () => Promise<void>;
    loadingMore: boolean;
    moreError: ApiError | null;
  };
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
