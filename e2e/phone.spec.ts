import { expect, test, type Page } from './test.ts';
import { a11yViolations } from './axe.ts';

// Small phones and large ones: 360 × 640 (Galaxy S-class) and 414 × 736 (iPhone Plus-class).
const phones = [
  { width: 360, height: 640 },
  { width: 414, height: 736 },
];

/** The page is no wider than the screen: nothing to scroll sideways. */
const noSidewaysScroll = async (page: Page) =>
  expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(page.viewportSize()!.width);

for (const viewport of phones) {
  test.describe(`${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport });

    test('the header search opens from a button, by keyboard too, and searches', async ({
      page,
    }) => {
      await page.goto('/vendor/login');
      // Escape is handled by script: wait until the header has hydrated (it stops being busy).
      await expect(page.getByRole('banner').locator('[aria-busy="true"]')).toHaveCount(0);
      const toggle = page.getByRole('banner').locator('summary', { hasText: 'Search' });
      await expect(toggle).toBeVisible();
      // The desktop box is not what phones use.
      await expect(page.locator('#header-q')).toBeHidden();
      await toggle.focus();
      await page.keyboard.press('Enter');
      const box = page.getByRole('searchbox', { name: 'Search Tradeshelf' });
      await expect(box).toBeFocused();
      await expect(box).toBeInViewport();
      expect(await a11yViolations(page)).toEqual([]);
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await expect(box).toBeHidden();
      await expect(toggle).toBeFocused();
      await page.keyboard.press('Enter');
      // The box takes the focus once the drawer has opened: type only then, or keys are lost.
      await expect(box).toBeFocused();
      await page.keyboard.type('scanner');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/search\?q=scanner$/);
      await noSidewaysScroll(page);
    });

    test('a product shows its title, price and buy action in the first screen', async ({
      page,
      request,
    }) => {
      const { products } = (await (
        await request.get('/api/v1/products/term/search?q=rsi%20divergence%20pro&limit=1')
      ).json()) as { products: Array<{ id: string; slug: string; title: string }> };
      const product = products[0]!;
      await page.goto(`/p/${product.id}/${product.slug}`);

      const box = page.locator('#buy');
      const bar = page.getByTestId('buy-bar');
      const buyLink = /Buy now|Subscribe|free trial/;
      await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeInViewport({
        ratio: 1,
      });
      const price = box.getByText(/^\$[\d,.]+ (\/ \w+|one-time)/).first();
      await expect(price).toBeInViewport({ ratio: 1 });
      // The buy box's button, or else the buy bar, is on the first screen, whole and uncovered.
      const onFirstScreen = async () => {
        const own = box.getByRole('link', { name: buyLink });
        const ownBox = await own.boundingBox();
        const barShown = await bar.isVisible();
        const barTop = barShown ? (await bar.boundingBox())!.y : viewport.height;
        if (ownBox && ownBox.y >= 0 && ownBox.y + ownBox.height <= barTop) return 'buy box';
        if (barShown) {
          await expect(bar.getByRole('link', { name: buyLink })).toBeInViewport({ ratio: 1 });
          await expect(
            bar.getByText((await price.textContent())!.split(/\d+-day/)[0]!),
          ).toBeInViewport();
          return 'buy bar';
        }
        return 'neither';
      };
      await expect.poll(onFirstScreen).not.toBe('neither');
      expect(await a11yViolations(page)).toEqual([]);

      // Reading on, the buy box leaves the screen and the bar comes in.
      await page.mouse.wheel(0, 1500);
      await expect(bar).toBeVisible();
      await expect(bar.getByRole('link', { name: buyLink })).toBeInViewport({ ratio: 1 });
      expect(await a11yViolations(page)).toEqual([]);
      // Its button brings the box's own button into view and focus to the box; the bar steps aside.
      await bar.getByRole('link', { name: buyLink }).click();
      await expect(box).toBeFocused();
      await expect(bar).toBeHidden();
      await expect(box.getByRole('link', { name: buyLink })).toBeInViewport({ ratio: 1 });
      await noSidewaysScroll(page);
    });

    test('the home page is compact: two tiles side by side, no endless scrolling', async ({
      page,
    }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Best sellers' })).toBeVisible();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      // One oversized card a row made it ~10 000 px; two a row and swipeable rows, ~2 500.
      expect(height).toBeLessThan(4000);
      const tiles = page.locator('section[aria-labelledby="featured"] article');
      const [first, second] = [await tiles.nth(0).boundingBox(), await tiles.nth(1).boundingBox()];
      expect(first!.width).toBeLessThan(viewport.width / 2);
      expect(second!.y).toBe(first!.y);
      await noSidewaysScroll(page);
      expect(await a11yViolations(page)).toEqual([]);
    });
  });
}
