import { expect, test, type APIRequestContext } from './test.ts';

// Issue 27: "## Heading" on the line before its text showed the literal "##" on product pages. The
// API renders Markdown to sanitised HTML (ADR 056); the page inserts it without a parser of its own.

const RUN = Date.now().toString(36).slice(-6);

/**
 * A vendor of its own, set up through the API: the demo vendor's storefront is counted by
 * honest-pages.spec.ts, which may run at the same time in another worker.
 */
async function newVendorHeaders(request: APIRequestContext) {
  const signup = await request.post('/auth/signup/buyer', {
    data: { email: `markdown-${RUN}-${Date.now()}@example.com`, password: 'markdown-vendor-77' },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const buyer = { authorization: `Bearer ${((await signup.json()) as { token: string }).token}` };
  const role = await request.post('/api/v1/user/role/vendor', { headers: buyer });
  expect(role.ok(), await role.text()).toBe(true);
  const headers = { authorization: `Bearer ${((await role.json()) as { token: string }).token}` };
  const storefront = await request.put('/api/v1/vendor/storefront', {
    headers,
    data: { vendorUrl: `markdown-${RUN}`, displayName: `Markdown ${RUN}` },
  });
  expect(storefront.ok(), await storefront.text()).toBe(true);
  return headers;
}

async function publishedProduct(request: APIRequestContext, description: string) {
  const headers = await newVendorHeaders(request);
  const created = await request.post('/api/v1/vendor/products', {
    headers,
    data: {
      kind: 'indicator',
      title: `Markdown check ${RUN}`,
      summary: 'A product whose description is Markdown.',
      description,
      tags: ['markdown'],
      platforms: ['tradingview'],
      assetClasses: ['stocks'],
      plans: [{ billing: 'one_time', amount: 1900, currency: 'usd' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { product } = (await created.json()) as { product: { id: string; publicPath: string } };
  const published = await request.post(`/api/v1/vendor/products/${product.id}/publish`, {
    headers,
  });
  expect(published.ok(), await published.text()).toBe(true);
  return product.publicPath;
}

test.use({ viewport: { width: 390, height: 844 } });

test('a product description with "## Heading" then a line of text shows a heading, at 390 px', async ({
  page,
  request,
}) => {
  const path = await publishedProduct(
    request,
    '## What you get\nAlerts on every chart.\n\n- **Fast** set-up\n- [Docs](https://example.com/docs)\n\n' +
      '<img src=x onerror="window.__injected = 1"> [x](javascript:window.__injected=2)',
  );
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(path, { waitUntil: 'networkidle' });
  const about = page.getByTestId('product-description');
  await expect(about.getByRole('heading', { level: 2, name: 'What you get' })).toBeVisible();
  await expect(about.getByText('Alerts on every chart.')).toBeVisible();
  await expect(about).not.toContainText('##');
  await expect(about.locator('li strong')).toHaveText('Fast');
  const docs = about.getByRole('link', { name: 'Docs' });
  await expect(docs).toHaveAttribute('rel', 'nofollow ugc noopener noreferrer');
  await expect(docs).toHaveAttribute('target', '_blank');
  // Raw HTML and script links stay text: nothing ran, no picture, no javascript: link.
  await expect(about.locator('img')).toHaveCount(0);
  await expect(about.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(about).toContainText('<img src=x onerror="window.__injected = 1">');
  expect(await page.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(errors).toEqual([]);
});
