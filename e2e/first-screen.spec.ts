import { expect, test, type APIRequestContext, type Page } from './test.ts';
import { a11yViolations } from './axe.ts';

// Issue 27: what a phone shows on its first screen (390 × 844), and what a desktop keeps (1366 × 768):
// the lesson's video before the outline, search results before the filters, and the results' number.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

/** The search API's own answer, to say what the page must show. */
async function searchApi(request: APIRequestContext, params: string) {
  const res = await request.get(`/api/v1/products/term/search?${params}&limit=24`);
  return (await res.json()) as {
    products: unknown[];
    bundles: unknown[];
    nextCursor: string | null;
  };
}

async function logInAsBuyer(page: Page) {
  await page.goto('/login?next=/courses');
  await page.getByLabel('Email').fill('buyer@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  // The session is stored 5 s after the answer (docs/product.md#sessions).
  await expect(page).toHaveURL('/courses', { timeout: 15_000 });
}

/** The demo buyer's first course, open at its first video lesson. Nothing is played: no progress. */
async function openVideoLesson(page: Page) {
  await logInAsBuyer(page);
  await page.getByTestId('course-card').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/courses\/[^/]+$/);
  const outline = page.getByRole('navigation', { name: 'Lessons' });
  await outline.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/courses\/[^/]+\/lessons\/[^/]+$/);
  return { video: page.getByTestId('lesson-video'), outline };
}

test.describe('phone, 390 px', () => {
  test.use({ viewport: PHONE });

  test('the lesson video is on the first screen, the outline after it', async ({ page }) => {
    const { video, outline } = await openVideoLesson(page);
    await expect(video).toBeVisible();
    const [v, o] = [(await video.boundingBox())!, (await outline.boundingBox())!];
    expect(v.y).toBeLessThan(PHONE.height);
    expect(v.y + v.height).toBeLessThanOrEqual(PHONE.height);
    expect(o.y).toBeGreaterThan(v.y + v.height);
  });

  test('the filters fold behind a button that counts them; results start on the first screen', async ({
    page,
    request,
  }) => {
    await page.goto('/search?q=rsi&category=indicators&platform=tradingview');
    const toggle = page.locator('summary', { hasText: 'Filters' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toContainText('2 active');
    const category = page.getByLabel('Category');
    await expect(category).toBeHidden();
    await expect(page.getByRole('article').first()).toBeInViewport();

    // The count is what the API found: one page, and whether another follows.
    const api = await searchApi(request, 'q=rsi&category=indicators&platform=tradingview');
    const shown = api.products.length + api.bundles.length;
    await expect(page.getByTestId('result-count')).toHaveText(
      `${shown}${api.nextCursor ? '+' : ''} result${shown === 1 && !api.nextCursor ? '' : 's'}`,
    );

    // Opened by keyboard, the fields are there and still apply.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(category).toBeVisible();
    await expect(category).toHaveValue('indicators');
    expect(await a11yViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(category).toBeHidden();
  });

  test('nothing found: no results, and the searches that do find something as links', async ({
    page,
  }) => {
    await page.goto('/search?q=rsi%20discord');
    await expect(page.getByTestId('result-count')).toHaveText('No results');
    const other = page.getByRole('list', { name: 'Other searches' }).getByRole('link');
    await expect(other.first()).toBeVisible();
    await other.first().click();
    await expect(page).toHaveURL(/\/search\?q=/);
    await expect(page.getByTestId('result-count')).toHaveText(/^\d+\+? results?$/);
    await expect(page.getByRole('article').first()).toBeVisible();
  });

  test('a misspelt search links to the corrected one', async ({ page }) => {
    await page.goto('/search?q=footprnt');
    await expect(page.getByText('No exact matches. Showing results for')).toBeVisible();
    const fixed = page.getByRole('link', { name: '“footprint”' });
    await expect(fixed).toHaveAttribute('href', '/search?q=footprint');
    await expect(page.getByTestId('result-count')).toHaveText(/^\d+\+? results?$/);
  });
});

test.describe('desktop, 1366 px', () => {
  test.use({ viewport: DESKTOP });

  test('the outline stays beside the lesson video', async ({ page }) => {
    const { video, outline } = await openVideoLesson(page);
    await expect(video).toBeVisible();
    const [v, o] = [(await video.boundingBox())!, (await outline.boundingBox())!];
    expect(o.x).toBeGreaterThanOrEqual(v.x + v.width);
    expect(o.y).toBeLessThan(v.y + v.height);
    await expect(video).toBeInViewport();
  });

  test('the filters are open without a button, with the number of results', async ({
    page,
    request,
  }) => {
    await page.goto('/search?q=rsi');
    await expect(page.getByLabel('Category')).toBeVisible();
    await expect(page.locator('summary', { hasText: 'Filters' })).toBeHidden();
    const api = await searchApi(request, 'q=rsi');
    const shown = api.products.length + api.bundles.length;
    await expect(page.getByTestId('result-count')).toHaveText(
      `${shown}${api.nextCursor ? '+' : ''} results`,
    );
    expect(await a11yViolations(page)).toEqual([]);
  });
});
