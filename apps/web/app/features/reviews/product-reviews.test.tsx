// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { reviewMessages as m } from '@tradeshelf/contract/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { ProductReviews } from './components.tsx';
import { ReviewPrompt, useFetchReviewDetails } from './own.tsx';
import { own, page, PRODUCT, reply, review, summary } from './test-fixtures.ts';

afterEach(cleanup);
// user-event walks a radio group with CSS.escape, which jsdom lacks.
beforeAll(() => {
  const w = window as unknown as { CSS?: { escape(v: string): string } };
  w.CSS ??= { escape: (v) => v.replace(/[^\w-]/g, (c) => `\\${c}`) };
});

const product = { productId: PRODUCT.id, vendorUrl: 'alpha-edge', vendorName: 'Alpha Edge Labs' };

/** As the product page does: it fetches the buyer's details once, for the buy box and the reviews. */
function PageDetails() {
  useFetchReviewDetails(product.productId);
  return null;
}

function renderReviews(
  initial = page([review(2, { rating: 5 }), review(1, { rating: 3 })], 'cursor-1'),
  answer: (req: SeenRequest) => Answer | undefined = () => undefined,
  signedIn = true,
) {
  return renderWithApp(
    <>
      <PageDetails />
      <ReviewPrompt productId={product.productId} />
      <ProductReviews {...product} initial={initial} initialSort="newest" />
    </>,
    {
      signedIn,
      answer: (req) =>
        answer(req) ??
        (req.path === '/api/v1/review/get-review'
          ? {
              status: 200,
              body: { review: null, canReview: true, reason: null },
            }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } }),
    },
  );
}

// Whole user flows with many events: a busy two-core machine needs more than the default 5 s.
describe('product reviews', { timeout: 20_000 }, () => {
  it('renders the server’s reviews with the summary; raw HTML is text, never markup', async () => {
    const initial = page([
      review(1, {
        text: '<script>alert(1)</script><b>bold</b> and **strong**',
        reply: reply('Thanks!', '2026-05-12T10:00:00.000Z'),
      }),
    ]);
    const { container } = renderReviews(initial, undefined, false);
    const items = screen.getAllByTestId('review-item');
    expect(items).toHaveLength(1);
    expect(items[0]!.textContent).toContain('<script>alert(1)</script><b>bold</b>');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    // Markdown is Markdown (ADR 056).
    expect(within(items[0]!).getByText('strong').tagName).toBe('STRONG');
    expect(
      within(items[0]!).getByText('Reply from Alpha Edge Labs', { exact: false }),
    ).toBeTruthy();
    expect(screen.getByText('Based on 1 review')).toBeTruthy();
    expect(screen.getByText('Rated 4 out of 5')).toBeTruthy();
    // Signed out: nothing to write with.
    expect(screen.queryByRole('button', { name: 'Write a review' })).toBeNull();
  });

  it('a buyer writes a review with the keyboard, gets field messages, and sees it merged', async () => {
    const ui = userEvent.setup();
    let posted: unknown = null;
    const app = renderReviews(undefined, (req) => {
      if (req.method !== 'POST') return undefined;
      posted = req.body;
      const body = req.body as { rating: number; text: string };
      return {
        status: 200,
        body: {
          review: own(9, { rating: body.rating, text: body.text.trim() }),
          summary: summary([5, 3, body.rating]),
        },
      };
    });
    // "Write a review" in the buy box opens the form in the reviews section, stars focused.
    const prompts = await screen.findAllByRole('button', { name: 'Write a review' });
    await ui.click(prompts[0]!);
    const form = await screen.findByTestId('review-form');
    const stars = within(form).getAllByRole('radio');
    expect(stars).toHaveLength(5);
    // Focused by the lazily loaded form's effect, which may run after its first paint.
    await waitFor(() => expect(document.activeElement).toBe(stars[0]));

    // Nothing chosen, nothing written: both fields say what is missing, nothing is sent.
    await ui.click(within(form).getByRole('button', { name: 'Publish review' }));
    expect(within(form).getByText(m.ratingRequired)).toBeTruthy();
    expect(within(form).getByText(m.textRequired)).toBeTruthy();
    expect(app.requests.filter((r) => r.method === 'POST')).toEqual([]);

    // Arrow keys move through the radio group.
    stars[0]!.focus();
    await ui.keyboard(' ');
    await ui.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect((stars[3] as HTMLInputElement).checked).toBe(true);
    expect(within(form).queryByText(m.ratingRequired)).toBeNull();

    // Pasted, not typed key by key: one input event each (typing is slow on a busy machine).
    await ui.click(within(form).getByLabelText('Your review'));
    await ui.paste('too short');
    await ui.click(within(form).getByRole('button', { name: 'Publish review' }));
    expect(within(form).getByText(m.textTooShort)).toBeTruthy();

    await ui.paste(' but now long enough to publish.');
    await ui.click(within(form).getByRole('button', { name: 'Publish review' }));
    await waitFor(() => expect(screen.queryByTestId('review-form')).toBeNull());
    expect(posted).toEqual({
      productId: PRODUCT.id,
      rating: 4,
      text: 'too short but now long enough to publish.',
    });
    // Merged into the list (first) and the summary; the buyer's panel shows it, focused.
    const items = screen.getAllByTestId('review-item');
    expect(items.some((i) => i.textContent?.includes('too short but now long enough'))).toBe(true);
    const list = screen.getByRole('list', { name: 'Reviews' });
    expect(within(list).getAllByTestId('review-item')[0]!.textContent).toContain('too short but');
    expect(screen.getByText('Based on 3 reviews')).toBeTruthy();
    const panel = screen.getByTestId('own-review');
    expect(within(panel).getByRole('heading', { name: 'Your review' })).toBe(
      document.activeElement,
    );
    expect(within(panel).getByRole('button', { name: 'Edit your review' })).toBeTruthy();
    expect(await screen.findByText(m.saved)).toBeTruthy();
  });

  it('shows the server’s refusal in the form and keeps what was typed', async () => {
    const ui = userEvent.setup();
    renderReviews(undefined, (req) =>
      req.method === 'POST'
        ? { status: 403, body: { error: m.refunded, code: 'forbidden' } }
        : undefined,
    );
    await ui.click((await screen.findAllByRole('button', { name: 'Write a review' }))[1]!);
    const form = await screen.findByTestId('review-form');
    await ui.click(within(form).getAllByRole('radio')[4]!);
    await ui.click(within(form).getByLabelText('Your review'));
    await ui.paste('Worked until the refund.');
    await ui.click(within(form).getByRole('button', { name: 'Publish review' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(m.refunded);
    expect((within(form).getByLabelText('Your review') as HTMLTextAreaElement).value).toBe(
      'Worked until the refund.',
    );
  });

  it('the buyer’s hidden review says why; no edit without owning the product again', async () => {
    renderReviews(undefined, (req) =>
      req.path === '/api/v1/review/get-review'
        ? {
            status: 200,
            body: {
              review: own(1, { hidden: 'refunded' }),
              canReview: false,
              reason: m.refunded,
            },
          }
        : undefined,
    );
    const panel = await screen.findByTestId('own-review');
    expect(panel.textContent).toContain(m.hidden.refunded);
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Write a review' })).toBeNull();
  });

  it('loads more reviews and another sort from the API', async () => {
    const ui = userEvent.setup();
    const app = renderReviews(undefined, (req) => {
      if (req.path !== '/api/v1/review/get-all-reviews') return undefined;
      if (req.query.get('cursor') === 'cursor-1')
        return { status: 200, body: page([review(0, { rating: 1 })]) };
      return { status: 200, body: page([review(2, { rating: 5 })], null) };
    });
    await ui.click(screen.getByRole('button', { name: 'More reviews' }));
    await waitFor(() => expect(screen.getAllByTestId('review-item')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'More reviews' })).toBeNull();
    const more = app.requests.find((r) => r.query.get('cursor'))!;
    expect(Object.fromEntries(more.query)).toEqual({
      vendorUrl: 'alpha-edge',
      productId: PRODUCT.id,
      sort: 'newest',
      limit: '5',
      cursor: 'cursor-1',
    });

    await ui.selectOptions(screen.getByLabelText('Sort reviews'), 'highest');
    await waitFor(() => expect(screen.getAllByTestId('review-item')).toHaveLength(1));
    expect(app.requests.at(-1)!.query.get('sort')).toBe('highest');
    expect(app.requests.at(-1)!.query.get('cursor')).toBeNull();
  });
});
