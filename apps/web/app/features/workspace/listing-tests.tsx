// What the product and bundle tests share (issue 28): the lists' empty state and pages, and the
// editor's notice when another tab saved first.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';

type Noun = 'product' | 'bundle';

/** What the editor sent: every call but the reads. */
export const writes = (requests: SeenRequest[]) => requests.filter((r) => r.method !== 'GET');

/** The editor of a new draft at `/vendor/{noun}s/new`; once saved, the saved draft's route says so. */
export function renderNewDraft(
  noun: Noun,
  editor: ReactElement,
  answer: (req: SeenRequest) => Answer,
) {
  return renderWithApp(
    <Routes>
      <Route path={`/vendor/${noun}s/new`} element={editor} />
      <Route path={`/vendor/${noun}s/:id`} element={<p>Editing saved {noun}</p>} />
    </Routes>,
    { signedIn: true, url: `/vendor/${noun}s/new`, answer },
  );
}

/** A list with nothing in it offers the first draft. */
export function itOffersTheFirst(noun: Noun, list: ReactElement) {
  it(`offers to create the first ${noun} when there is none`, async () => {
    renderWithApp(list, {
      signedIn: true,
      answer: () => ({ status: 200, body: { [`${noun}s`]: [], nextCursor: null } }),
    });
    const link = await screen.findByRole('link', { name: `Create your first ${noun}` });
    expect(link.getAttribute('href')).toBe(`/vendor/${noun}s/new`);
  });
}

/** The list, whose first page holds `first` and whose next (after cursor `next-1`) holds `second`. */
export function renderTwoPages(noun: Noun, list: ReactElement, first: object, second: object) {
  const rows = `${noun}s`;
  return renderWithApp(list, {
    signedIn: true,
    answer: (req) =>
      req.query.get('cursor') === 'next-1'
        ? { status: 200, body: { [rows]: [second], nextCursor: null } }
        : { status: 200, body: { [rows]: [first], nextCursor: 'next-1' } },
  });
}

/**
 * Next reads the page after the cursor `next-1` (its first row `second`, which `onSecond` checks),
 * Previous the first page again (its first row `first`).
 */
export async function pageOnAndBack(
  ui: UserEvent,
  requests: SeenRequest[],
  {
    first,
    second,
    onSecond,
  }: { first: string; second: string; onSecond?: (row: HTMLElement) => void },
) {
  await ui.click(screen.getByRole('button', { name: 'Next' }));
  const link = await screen.findByRole('link', { name: second });
  onSecond?.(link.closest('tr')!);
  expect(requests.at(-1)!.query.get('cursor')).toBe('next-1');
  await ui.click(screen.getByRole('button', { name: 'Previous' }));
  expect(await screen.findByRole('link', { name: first })).toBeTruthy();
}

/**
 * The loaded editor of a published listing, once its heading `title` shows: it links to its public
 * page, and Unpublish… asks first (Cancel sends nothing); Unpublish then sends the one call and
 * the status says so.
 */
export async function unpublishAfterAsking(
  ui: UserEvent,
  requests: SeenRequest[],
  { noun, id, title, publicPath }: { noun: Noun; id: string; title: string; publicPath: string },
) {
  await screen.findByRole('heading', { name: title });
  expect(screen.getByRole('link', { name: 'View public page' }).getAttribute('href')).toBe(
    publicPath,
  );
  await ui.click(screen.getByRole('button', { name: 'Unpublish…' }));
  expect(writes(requests)).toEqual([]);
  await ui.click(screen.getByRole('button', { name: 'Cancel' }));
  await ui.click(screen.getByRole('button', { name: 'Unpublish…' }));
  await ui.click(screen.getByRole('button', { name: 'Unpublish' }));
  await waitFor(() => expect(screen.getByText('Unpublished', { selector: 'span' })).toBeTruthy());
  expect(writes(requests).map((r) => r.path)).toEqual([`/api/v1/vendor/${noun}s/${id}/unpublish`]);
}

/**
 * Another tab saved first (its `updatedAt` is later than the one the editor loaded): the editor
 * says so, keeps what was typed, and lets the vendor replace theirs or load it.
 */
export function describeTwoTabs<T extends { id: string; title: string; updatedAt: string }>({
  noun,
  make,
  editor,
  api,
  conflict,
}: {
  noun: Noun;
  make: (over?: Partial<T>) => T;
  editor: (loaded: T) => ReactElement;
  /** What the rest of the API answers. */
  api: (initial: T) => (req: SeenRequest) => Answer;
  /** The contract's words for the conflict. */
  conflict: string;
}) {
  describe('two tabs', () => {
    const twoTabs = (puts: SeenRequest[]) => {
      const theirs = make({
        title: 'Their title',
        updatedAt: '2026-11-03T10:00:00.000Z',
      } as Partial<T>);
      return (req: SeenRequest): Answer => {
        if (req.method === 'PUT') {
          puts.push(req);
          const body = req.body as { title: string; baseUpdatedAt?: string };
          return body.baseUpdatedAt
            ? { status: 409, body: { error: conflict, code: 'conflict' } }
            : { status: 200, body: { [noun]: make({ title: body.title } as Partial<T>) } };
        }
        if (req.method === 'GET' && req.path === `/api/v1/vendor/${noun}s/${make().id}`)
          return { status: 200, body: { [noun]: theirs } };
        return api(make())(req);
      };
    };

    it('says so when another tab saved first, keeps what was typed, and lets the vendor replace it', async () => {
      const ui = userEvent.setup();
      const puts: SeenRequest[] = [];
      renderWithApp(editor(make()), { signedIn: true, answer: twoTabs(puts) });
      const title = screen.getByLabelText('Title');
      await ui.clear(title);
      await ui.type(title, 'My title');
      await ui.click(screen.getByRole('button', { name: /^Save$/ }));
      expect(await screen.findByText(conflict)).toBeTruthy();
      expect((puts[0]!.body as { baseUpdatedAt: string }).baseUpdatedAt).toBe(make().updatedAt);
      expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('My title');

      await ui.click(screen.getByRole('button', { name: 'Save mine to replace it' }));
      await waitFor(() => expect(screen.queryByText(conflict)).toBeNull());
      expect(puts).toHaveLength(2);
      expect(puts[1]!.body).not.toHaveProperty('baseUpdatedAt');
      expect(puts[1]!.body).toMatchObject({ title: 'My title' });
    });

    it('loads the other tab’s version when the vendor asks', async () => {
      const ui = userEvent.setup();
      renderWithApp(editor(make()), { signedIn: true, answer: twoTabs([]) });
      await ui.type(screen.getByLabelText('Title'), ' v2');
      await ui.click(screen.getByRole('button', { name: /^Save$/ }));
      await ui.click(await screen.findByRole('button', { name: 'Load the latest version' }));
      await waitFor(() =>
        expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Their title'),
      );
      expect(screen.queryByText(conflict)).toBeNull();
    });
  });
}
