import type { AsyncThunk } from '@reduxjs/toolkit';
import type { ApiError } from '@tradeshelf/contract';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../components/list-pager.tsx';
import { Screen } from '../../components/screen.tsx';
import { Alert } from '../../components/ui.tsx';
import type { ThunkConfig } from '../../lib/thunk.ts';
import { useAction, useRead } from './request.ts';

// Small pieces the delivery, reviews and affiliates screens share (delivery helper).

export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/** An editor's read that failed: its words, Try again, and the way back to its list. */
export function ReadFailed({
  read,
  back,
}: {
  read: { error: ApiError | null; reload: () => Promise<void> };
  back: { to: string; label: string };
}) {
  return (
    <Alert>
      {read.error?.error ?? 'We could not load this.'}{' '}
      <button type="button" className={`underline ${focusRing}`} onClick={() => void read.reload()}>
        Try again
      </button>{' '}
      <Link to={back.to} className="underline">
        {back.label}
      </Link>
    </Alert>
  );
}

/** A link to the page buyers see, opened in a new tab so the workspace stays as it was. */
export function PublicPageLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-sm font-semibold text-brand-400 underline underline-offset-2"
    >
      {children}
    </a>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-1">
      <h1 className="text-2xl font-bold text-white">{title}</h1>
      {children && <p className="text-sm text-slate-400">{children}</p>}
    </header>
  );
}

export function Panel({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-white">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

// The screen shape and the pager are the shared kit's (components/), with the buyer's screens.
export { BackLink, Loading, ReadError } from '../../components/screen.tsx';
export { GrowingScreen, LoadMore } from '../../components/list-pager.tsx';

/** Copies a value; says "Copied", or selects it for copying by hand when the clipboard is shut. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        aria-label={label}
        className={`rounded-md border border-ink-600 px-2 py-1 text-xs font-semibold text-slate-200 hover:bg-ink-800 ${focusRing}`}
        onClick={async () => {
          try {
            if (!navigator.clipboard?.writeText) throw new Error('No clipboard');
            await navigator.clipboard.writeText(value);
            setState('copied');
          } catch {
            setState('manual');
          }
        }}
      >
        Copy
      </button>
      <span role="status" className="text-xs text-slate-400">
        {state === 'copied' ? 'Copied' : state === 'manual' ? 'Select the name and copy it' : ''}
      </span>
    </span>
  );
}

type Thunk<Arg, Res> = AsyncThunk<Res, Arg, ThunkConfig>;
type PageOf<T> = { items: T[]; nextCursor: string | null };

/**
 * A list read a page at a time: the first page when `filter` changes, "Load more" for the next.
 * `replace` puts a changed item (a task marked done, a review replied to) in its place. Callers
 * name the type arguments: inference through `AsyncThunk` widens the answer with `undefined`.
 */
export function usePaged<A extends { cursor?: string | undefined }, T extends { id: string }>(
  thunk: Thunk<A, PageOf<T>>,
  filter: A,
) {
  const first = useRead<A, PageOf<T>>(thunk, filter);
  const more = useAction<A, PageOf<T>>(thunk);
  const key = JSON.stringify(filter);
  // Later pages and patches belong to the first page they were read after: a new first page (a
  // filter change, a reload) drops them without an effect.
  const base = first.data;
  const [extraOf, setExtra] = useState<{ base: unknown; page: PageOf<T> } | null>(null);
  const extra = extraOf && extraOf.base === base ? extraOf.page : null;
  const [patchesOf, setPatches] = useState<{ base: unknown; items: Record<string, T> }>({
    base: null,
    items: {},
  });
  const patches = patchesOf.base === base ? patchesOf.items : {};
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const nextCursor = extra ? extra.nextCursor : (first.data?.nextCursor ?? null);
  const runMore = more.run;
  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    const page = await runMore({ ...(JSON.parse(key) as A), cursor: nextCursor });
    if (page)
      setExtra((e) => ({
        base,
        page: {
          items: [...(e && e.base === base ? e.page.items : []), ...page.items],
          nextCursor: page.nextCursor,
        },
      }));
  }, [nextCursor, key, runMore, base]);
  const replace = useCallback(
    (item: T) =>
      setPatches((p) => ({
        base,
        items: { ...(p.base === base ? p.items : {}), [item.id]: item },
      })),
    [base],
  );
  return {
    status: first.status,
    error: first.error,
    reload: first.reload,
    items: items.map((i) => patches[i.id] ?? i),
    nextCursor,
    loadMore,
    loadingMore: more.busy,
    moreError: more.error,
    replace,
  };
}

/** Ticks every minute, so "due in" and "overdue by" stay true on a page left open. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * A kind's own screen (courses, licences): every product of that kind as a card to its set-up
 * page, a page at a time. `read` is the kind's list thunk, `items` picks the rows from a page.
 */
export function ProductCards<
  Page extends { nextCursor: string | null },
  Row extends { productId: string },
>({
  title,
  intro,
  read: thunk,
  items,
  noun,
  to,
  name,
  facts,
}: {
  title: string;
  intro: ReactNode;
  read: Thunk<{ cursor?: string }, Page>;
  items: (page: Page) => Row[];
  /** "course", "app": what the loading and empty states call a product of this kind. */
  noun: string;
  to: (row: Row) => string;
  name: (row: Row) => ReactNode;
  facts: (row: Row) => ReactNode;
}) {
  const pages = useCursorPages();
  const list = useRead<{ cursor?: string }, Page>(
    thunk,
    pages.cursor ? { cursor: pages.cursor } : {},
  );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        <p className="mt-1 text-sm text-slate-400">{intro}</p>
      </div>
      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading={`Loading your ${noun}s…`}
        rows={3}
        size="row"
        isEmpty={(page) => items(page).length === 0 && !pages.cursor}
        empty={<Alert tone="info">You have no {noun} products yet.</Alert>}
      >
        {(page) => (
          <ul className="grid gap-3">
            {items(page).map((row) => (
              <li key={row.productId}>
                <Link
                  to={to(row)}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4 hover:border-brand-500"
                >
                  <span className="font-semibold text-white">{name(row)}</span>
                  <span className="text-sm text-slate-400">{facts(row)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={list.status === 'loading'} />
    </div>
  );
}
