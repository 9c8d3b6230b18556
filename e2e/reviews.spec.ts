import { expect, test } from './test.ts';
import { buyOnSandbox } from './shop.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';

// Issue 18: a new buyer buys a product, reviews it on its page, sees the review merged into the
// page's reviews, and finds it server-rendered (HTML and JSON-LD) on the next render of the page.

const PRODUCT = 'Session Box Indicator';

test('buy a product, write a review on its page, edit it, and find it server-rendered', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { username } = await signUp(page, 'rev', 'review-writer-77');
  const found = (await (
    await page.request.get(`/api/v1/products/term/search?q=${encodeURIComponent(PRODUCT)}&limit=5`)
  ).json()) as { products: Array<{ id: string; slug: string; title: string }> };
  const product = found.products.find((p) => p.title === PRODUCT)!;
  expect(product, PRODUCT).toBeDefined();
  const path = `/p/${product.id}/${product.slug}`;

  const listed = (await (
    await page.request.get(`/api/v1/review/get-all-reviews?productId=${product.id}`)
  ).json()) as { summary: { count: number } };
  const before = listed.summary.count;
  expect(before).toBeGreaterThan(0);

  // Before buying there is nothing to write with (the server says so); the demo reviews are there.
  const asked = page.waitForResponse((r) => r.url().includes('/api/v1/review/get-review'));
  await page.goto(path);
  expect(await (await asked).json()).toMatchObject({ review: null, canReview: false });
  const reviews = page.getByRole('region', { name: 'Reviews' });
  await expect(reviews.getByTestId('review-item').first()).toBeVisible();
  await expect(reviews.getByText(`Based on ${before} reviews`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Write a review' })).toHaveCount(0);

  // Buy it with the sandbox's hosted checkout.
  await buyOnSandbox(page);

  // The buy box says it is owned and offers the review; the form opens in the reviews section.
  await page.goto(path);
  const buyBox = page.locator('#buy');
  await expect(buyBox.getByText('Purchased')).toBeVisible({ timeout: 15_000 });
  await buyBox.getByRole('button', { name: 'Write a review' }).click();
  const form = page.getByTestId('review-form');
  await expect(form).toBeInViewport();
  const stars = form.getByRole('radio');
  await expect(stars.first()).toBeFocused();
  expect(await a11yViolations(page)).toEqual([]);

  // Refused without a rating or text: the fields say why, and nothing is sent.
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/v1/review/post-review')) posts++;
  });
  await form.getByRole('button', { name: 'Publish review' }).click();
  await expect(form.getByText('Choose a rating from 1 to 5 stars.')).toBeVisible();
  await expect(form.getByText('Write a few words about it.')).toBeVisible();
  expect(posts).toBe(0);

  // Four stars with the keyboard (arrow keys move through the radio group).
  await stars.first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: /^4 stars/ })).toBeChecked();
  const text = 'Session boxes <b>line up</b> with my broker clock & the London breakout levels.';
  await form.getByLabel('Your review').fill(text);
  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/v1/review/post-review') && r.request().method() === 'POST',
  );
  await form.getByRole('button', { name: 'Publish review' }).click();
  expect((await saved).status()).toBe(200);

  // Merged into the page: the buyer's panel, the first review of the list, the summary.
  await expect(form).toHaveCount(0);
  const mine = page.getByTestId('own-review');
  await expect(mine.getByRole('heading', { name: 'Your review' })).toBeFocused();
  await expect(mine).toContainText(text);
  const list = reviews.getByRole('list', { name: 'Reviews' });
  await expect(list.getByTestId('review-item').first()).toContainText(text);
  await expect(list.getByTestId('review-item').first()).toContainText(username);
  await expect(reviews.getByText(`Based on ${before + 1} reviews`)).toBeVisible();
  // Shown as text: the markup typed is not markup on the page.
  await expect(list.locator('b')).toHaveCount(0);

  // Edit it: still one review by this buyer, now five stars and marked edited.
  await mine.getByRole('button', { name: 'Edit your review' }).click();
  await expect(form.getByRole('radio', { name: /^4 stars/ })).toBeChecked();
  // A pointer picks a star by clicking it (the radio inside it is visually hidden).
  await form
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: /^5 stars/ }) })
    .click();
  await expect(form.getByRole('radio', { name: /^5 stars/ })).toBeChecked();
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form).toHaveCount(0);
  await expect(list.getByTestId('review-item').filter({ hasText: username })).toHaveCount(1);
  await expect(list.getByTestId('review-item').first()).toContainText('edited');
  await expect(reviews.getByText(`Based on ${before + 1} reviews`)).toBeVisible();

  // After a reload the buyer still sees it as theirs.
  await page.reload();
  await expect(page.getByTestId('own-review')).toContainText(text, { timeout: 15_000 });
  expect(await a11yViolations(page)).toEqual([]);

  // A page the cache has not seen yet is rendered afresh: the review is in its HTML, escaped, and
  // in its JSON-LD; the aggregate counts it.
  const html = await (await page.request.get(`${path}?reviewSort=newest`)).text();
  expect(html).toContain('Session boxes &lt;b&gt;line up&lt;/b&gt; with my broker clock');
  expect(html).not.toContain('<b>line up</b>');
  const ld = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
    .find((b) => b['@type'] === 'Product') as {
    aggregateRating: { reviewCount: number };
    review: Array<{
      author: { name: string };
      reviewBody: string;
      reviewRating: { ratingValue: number };
    }>;
  };
  expect(ld.aggregateRating.reviewCount).toBe(before + 1);
  expect(ld.review[0]).toMatchObject({
    author: { name: username },
    reviewBody: text,
    reviewRating: { ratingValue: 5 },
  });
});
