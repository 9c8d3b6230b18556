import { expect, test, type Locator } from './test.ts';
import sharp from 'sharp';

/** Issue 14: pictures a buyer sees actually load, in a modern format, where they should. */

const BUYER = { email: 'buyer@demo.tradeshelf.test', password: 'tradeshelf-demo' };

/** The image decoded: complete with a real width (a broken or blank file has 0). */
const loaded = (img: Locator) =>
  img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0));

test('a product page shows its cover: loaded, AVIF, sized, high priority', async ({
  page,
  request,
}) => {
  const res = await request.get('/api/v1/products/term/search?q=RSI%20Divergence%20Pro&limit=5');
  const { products } = (await res.json()) as {
    products: Array<{ id: string; slug: string; title: string }>;
  };
  const product = products.find((p) => p.title === 'RSI Divergence Pro')!;
  await page.goto(`/p/${product.id}/${product.slug}`);

  const cover = page.locator('img[fetchpriority="high"]');
  await expect(cover).toHaveCount(1);
  await expect.poll(() => loaded(cover)).toBeGreaterThan(0);
  // Chromium takes the AVIF source; its box was reserved from width/height before it loaded.
  expect(await cover.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\.avif$/);
  const box = await cover.boundingBox();
  expect(box!.width / box!.height).toBeCloseTo(16 / 9, 1);

  // The second picture swaps in from its thumbnail.
  await page.getByRole('button', { name: 'Show picture 2 of 2' }).click();
  const main = page.getByRole('img', { name: 'RSI Divergence Pro: picture 2 of 2' });
  await expect.poll(() => loaded(main)).toBeGreaterThan(0);
});

test('covers off the first screen come after hydration, and load as they near the viewport', async ({
  page,
}) => {
  // `goto` waits for hydration (e2e/test.ts); before it the tile held only its box (ADR 069).
  await page.goto('/');
  const later = page.locator('section[aria-labelledby="new"] li img').first();
  await expect(later).toHaveAttribute('loading', 'lazy');
  await later.scrollIntoViewIfNeeded();
  await expect.poll(() => loaded(later)).toBeGreaterThan(0);
  expect(await later.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\.avif$/);
});

test('an uploaded avatar shows in the header; initials before it', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(BUYER.email);
  await page.getByLabel('Password').fill(BUYER.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const account = page.getByTestId('header-account');
  await expect(account).toBeVisible({ timeout: 15_000 });

  // No picture yet: the username's initials.
  await expect(account.locator('img')).toHaveCount(0);
  await expect(account).toContainText('DB');

  await page.goto('/account');
  const picture = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#f59e0b' },
  })
    .jpeg()
    .toBuffer();
  await page
    .locator('#avatar-file')
    .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: picture });
  await expect(page.getByText('Profile picture updated')).toBeVisible();

  const avatar = account.locator('img');
  await expect(avatar).toHaveCount(1);
  await expect.poll(() => loaded(avatar)).toBeGreaterThan(0);
  // 32 px in the header: the smallest stored width, in AVIF.
  expect(await avatar.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\/128\.avif$/);

  // It stays after a reload (the profile is fetched again).
  await page.reload();
  await expect
    .poll(() => loaded(page.getByTestId('header-account').locator('img')))
    .toBeGreaterThan(0);
});
