import { expect, type APIRequestContext, type Page } from './test.ts';

// Buying as a buyer does: a product found by its title, paid on the payment sandbox's checkout.

const SLOW = 30_000;

/** A published product by its exact title, through the public search. */
export async function findProduct(request: APIRequestContext, title: string) {
  const res = await request.get(`/api/v1/products/term/search?q=${encodeURIComponent(title)}`);
  const { products } = (await res.json()) as {
    products: Array<{ id: string; slug: string; title: string }>;
  };
  const product = products.find((p) => p.title === title);
  expect(product, title).toBeDefined();
  return product!;
}

/** A product page's path, found by the product's exact title. */
export async function productPath(request: APIRequestContext, title: string) {
  const product = await findProduct(request, title);
  return `/p/${product.id}/${product.slug}`;
}

/** Pays the sandbox's hosted checkout for the product page open in `page`. */
export async function buyOnSandbox(page: Page, button: RegExp = /^Buy now · /) {
  const buy = page.getByRole('button', { name: button });
  await expect(buy).toBeVisible({ timeout: SLOW });
  await buy.click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//, { timeout: SLOW });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({
    timeout: SLOW,
  });
}
