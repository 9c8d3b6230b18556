import { expect, test, type Page } from './test.ts';
import { plans } from '@tradeshelf/contract/client';
import { a11yViolations } from './axe.ts';

// Issue 27: the plans sell on their own page (no coupon box, no vendor, no platforms), and a
// storefront's counts agree with what it lists and with the vendor's workspace.

const widths = [390, 1366];

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of widths) {
  test(`the plan pages sell the plan themselves at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const plan of Object.values(plans)) {
      await page.goto(plan.path);
      const main = page.locator('#main');
      await expect(
        page.getByRole('heading', { level: 1, name: `Tradeshelf ${plan.name}` }),
      ).toBeVisible();
      const billing = page.getByRole('group', { name: 'Billing' });
      await expect(billing.getByRole('radio')).toHaveCount(2);
      // Signed out, the buy action leads to log in and back to this page, not to a product page.
      const buy = page.getByRole('link', { name: 'Start 7-day free trial' });
      await expect(buy).toBeVisible();
      await expect(buy).toHaveAttribute('href', `/login?next=${encodeURIComponent(plan.path)}`);
      await expect(page.getByLabel(/Coupon code/)).toHaveCount(0);
      await expect(main).not.toContainText(/Works with|Contact the vendor|Plan details/);
      await expect(main.locator('a[href^="/p/"]')).toHaveCount(0);
      expect(await noSidewaysScroll(page)).toBe(true);

      // The yearly plan has no trial: the button says what it does.
      await billing.getByRole('radio', { name: /year/ }).check();
      await expect(page.getByRole('link', { name: /^Join · \$/ })).toBeVisible();
    }
    expect(await a11yViolations(page)).toEqual([]);

    // The plan's product address leads to its page.
    const list = await page.request.get(
      '/api/v1/products/list/search?vendorUrl=tradeshelf&isActive=true',
    );
    const { products } = (await list.json()) as {
      products: Array<{ id: string; slug: string }>;
    };
    for (const plan of Object.values(plans)) {
      const product = products.find((p) => p.slug === plan.slug)!;
      await page.goto(`/p/${product.id}/${product.slug}`);
      await expect(page).toHaveURL(new RegExp(`${plan.path}$`));
    }
  });

  test(`a storefront counts what it lists, as the workspace does, at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/v/alpha-edge');
    const products = page.locator('section[aria-labelledby="products"] li');
    const bundles = page.locator('section[aria-labelledby="bundles"] li');
    const productCount = await products.count();
    const bundleCount = await bundles.count();
    expect(productCount).toBeGreaterThan(1);
    expect(bundleCount).toBe(1);
    await expect(page.getByTestId('storefront-counts')).toHaveText(
      `${productCount} products · 1 bundle`,
    );
    expect(await noSidewaysScroll(page)).toBe(true);

    // The vendor's workspace counts the same listings as published, and says what is not.
    await page.goto('/login?next=/vendor');
    await page.getByLabel('Email').fill('vendor@demo.tradeshelf.test');
    await page.getByLabel('Password').fill('tradeshelf-demo');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(
      page.getByText(
        `${productCount + 1} listings published (${productCount} products and 1 bundle)`,
      ),
    ).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/not published \(drafts and unpublished\)/)).toBeVisible();
  });
}
