import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { a11yViolations } from './axe.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 33's proof: the demo vendor turns two-factor on, makes an API key (seen once) and a webhook
// endpoint pointing at a receiver this test runs on loopback (the e2e server sets
// WEBHOOKS_ALLOW_PRIVATE); a buyer pays on the payment sandbox; the receiver gets the sale signed
// and once; "Resend" sends it again with the same webhook-id.

const SLOW = 30_000;
const VENDOR = { email: 'vendor@demo.tradeshelf.test', password: 'tradeshelf-demo' };
const PRODUCT = 'Trend Pullback Scanner';

interface Got {
  headers: IncomingHttpHeaders;
  body: string;
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible({
    timeout: SLOW,
  });
}

test('a vendor automates: API key once, a signed sale webhook, resent with the same id', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const got: Got[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tradeshelf`;
  const vendor = await (await browser.newContext()).newPage();
  const buyer = await (await browser.newContext()).newPage();
  try {
    await logIn(vendor, VENDOR.email, VENDOR.password);
    const { nextCode } = await turnOnTwoFactor(vendor, SLOW);

    await vendor.goto('/vendor');
    await vendor
      .getByRole('navigation', { name: 'Vendor workspace' })
      .getByRole('link', { name: 'Developers' })
      .click({ timeout: SLOW });
    await expect(
      vendor.getByRole('heading', { level: 1, name: 'API keys & webhooks' }),
    ).toBeVisible({
      timeout: SLOW,
    });
    await vendor.getByLabel('Key name').fill('Spreadsheet sync');
    await vendor.getByLabel('Two-factor code').fill(nextCode());
    await vendor.getByRole('button', { name: 'Create key' }).click();
    const shown = vendor.getByTestId('shown-secret');
    await expect(shown).toHaveText(/^tsk_test_/, { timeout: SLOW });
    const key = (await shown.textContent())!.trim();
    // It works as a key for what its scope allows.
    const sales = await request.get('/api/v1/vendor/purchases', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(sales.status()).toBe(200);
    await vendor.getByRole('button', { name: 'I have copied it' }).click();
    // Seen once: only its start is listed.
    await expect(vendor.getByTestId('api-keys')).toContainText('Spreadsheet sync');
    await expect(vendor.getByText(key)).toHaveCount(0);
    await vendor.reload();
    await expect(vendor.getByTestId('api-keys')).toContainText('Spreadsheet sync', {
      timeout: SLOW,
    });
    await expect(vendor.getByText(key)).toHaveCount(0);

    await vendor.getByLabel('Endpoint URL').fill(url);
    await vendor.getByLabel('Description (optional)').fill('Loopback receiver of the e2e walk');
    await vendor.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(shown).toHaveText(/^whsec_/, { timeout: SLOW });
    const secret = (await shown.textContent())!.trim();
    await vendor.getByRole('button', { name: 'I have copied it' }).click();
    expect(await a11yViolations(vendor)).toEqual([]);

    // A buyer pays for one of the vendor's products on the payment sandbox.
    await buyer.goto('/signup');
    await buyer.getByLabel('Email').fill(`dev-buyer-${Date.now()}@example.com`);
    await buyer.getByLabel('Password').fill('developer-walk-77');
    await buyer.getByRole('button', { name: 'Sign up' }).click();
    await expect(buyer.getByRole('banner').getByRole('button', { name: 'Log out' })).toBeVisible({
      timeout: SLOW,
    });
    await buyer.getByPlaceholder('Enter your username').fill(`dev${Date.now() % 100_000_000}`);
    await buyer.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(buyer.getByPlaceholder('Enter your username')).toHaveCount(0, { timeout: SLOW });
    const found = await request.get(
      `/api/v1/products/term/search?q=${encodeURIComponent(PRODUCT)}&limit=10`,
    );
    const product = (
      (await found.json()) as { products: Array<{ id: string; slug: string; title: string }> }
    ).products.find((p) => p.title === PRODUCT);
    expect(product, `demo product “${PRODUCT}”`).toBeDefined();
    await buyer.goto(`/p/${product!.id}/${product!.slug}`);
    const buy = buyer.getByRole('button', { name: /^(Buy now|Subscribe) · / });
    await expect(buy).toBeVisible({ timeout: SLOW });
    // A TradingView product may ask for the buyer's TradingView name first.
    const tv = buyer.getByLabel(/TradingView username/);
    if (await tv.isVisible()) await tv.fill(`devbuyer${Date.now() % 100_000}`);
    await buy.click();
    await expect(buyer).toHaveURL(/\/sandbox\/checkout\//, { timeout: SLOW });
    await buyer.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(buyer.getByRole('heading', { name: 'Payment received' })).toBeVisible({
      timeout: SLOW,
    });

    // The receiver gets the sale, signed (checked by the npm `standardwebhooks` package).
    const verify = (g: Got) =>
      new Webhook(secret).verify(g.body, {
        'webhook-id': String(g.headers['webhook-id']),
        'webhook-timestamp': String(g.headers['webhook-timestamp']),
        'webhook-signature': String(g.headers['webhook-signature']),
      }) as { type: string; data: { sale: { item: { title: string } } } };
    const soldNow = () =>
      got.filter((g) => {
        const p = verify(g);
        return p.type === 'sale.completed' && p.data.sale.item.title === PRODUCT;
      });
    await expect.poll(() => soldNow().length, { timeout: 60_000 }).toBe(1);
    const first = soldNow()[0]!;
    const id = String(first.headers['webhook-id']);
    // Once: no second copy arrives while the log says delivered.
    await vendor.getByRole('button', { name: 'Deliveries' }).click();
    const row = vendor.locator(`tr[data-webhook-id="${id}"]`);
    await expect(row).toContainText('Delivered', { timeout: SLOW });
    expect(got.filter((g) => String(g.headers['webhook-id']) === id)).toHaveLength(1);

    await row.getByRole('button', { name: /^Resend/ }).click();
    await expect
      .poll(() => got.filter((g) => String(g.headers['webhook-id']) === id).length, {
        timeout: 60_000,
      })
      .toBe(2);
    const again = got.filter((g) => String(g.headers['webhook-id']) === id)[1]!;
    expect(again.body).toBe(first.body);
    expect(verify(again)).toEqual(verify(first));
  } finally {
    await vendor.context().close();
    await buyer.context().close();
    await new Promise<void>((done) => server.close(() => done()));
  }
});
