import { expect, test } from './test.ts';
import { a11yViolations as violations } from './axe.ts';

const pages = [
  '/',
  '/search?q=rsi',
  '/search?category=discord',
  // Nothing found: the other searches offered as links.
  '/search?q=rsi%20discord',
  '/vendor/login',
  '/premium',
  '/login',
  '/signup',
  '/forgot-password',
  '/no-such-page',
];

for (const path of pages) {
  test(`no detectable accessibility violations on ${path}`, async ({ page }) => {
    await page.goto(path);
    expect(await violations(page)).toEqual([]);
  });
}

test('no detectable accessibility violations on a product, its storefront and a bundle', async ({
  page,
  request,
}) => {
  const found = (await (
    await request.get('/api/v1/products/term/search?q=rsi&limit=1')
  ).json()) as {
    products: Array<{ id: string; slug: string; vendor: { vendorUrl: string } }>;
    bundles: Array<{ id: string; slug: string }>;
  };
  const product = found.products[0]!;
  const bundles = (await (
    await request.get(
      `/api/v1/products/list/search?vendorUrl=${product.vendor.vendorUrl}&isActive=true`,
    )
  ).json()) as { bundles: Array<{ id: string; slug: string }> };
  const paths = [`/p/${product.id}/${product.slug}`, `/v/${product.vendor.vendorUrl}`];
  const bundle = bundles.bundles[0] ?? found.bundles[0];
  if (bundle) paths.push(`/b/${bundle.id}/${bundle.slug}`);
  expect(paths.length).toBe(3);
  for (const path of paths) {
    await page.goto(path);
    expect(await violations(page), path).toEqual([]);
  }
});

test('no detectable accessibility violations on the library and the Discord return page', async ({
  page,
}) => {
  // Signed-in pages: the demo buyer, whose session is stored 5 s after the answer (docs/product.md#sessions).
  await page.goto('/login?next=/library');
  await page.getByLabel('Email').fill('buyer@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/library', { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your library' })).toBeVisible();
  await expect(
    page.getByTestId('discord-connect').or(page.getByTestId('discord-unlink')),
  ).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await violations(page)).toEqual([]);

  // Back from Discord's page after Cancel: nothing is sent, the page explains and offers Try again.
  await page.goto('/discord-auth-callback?error=access_denied&state=x');
  await expect(page.getByTestId('discord-try-again')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
