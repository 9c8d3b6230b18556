import { expect, test } from './test.ts';
import { buyOnSandbox } from './shop.ts';
import { receiver, type Received } from '../apps/api/test/receiver.ts';
import { Webhook } from 'standardwebhooks';
import {
  draftIndicator,
  openStorefront,
  publishProduct,
  signUp,
  vendorAndBuyer,
} from './accounts.ts';
import { a11yViolations } from './axe.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 33's proof: a new vendor (not the demo one: two-factor on it would lock the other specs'
// logins out) lists a product, turns two-factor on, makes an API key (seen once) and a webhook
// endpoint pointing at a receiver this test runs on loopback (the e2e server sets
// WEBHOOKS_ALLOW_PRIVATE); a buyer pays on the payment sandbox; the receiver gets the sale signed
// and once; "Resend" sends it again with the same webhook-id.

const SLOW = 30_000;
const RUN = Date.now().toString(36).slice(-6);
const PRODUCT = `Hook Sessions ${RUN}`;

test('a vendor automates: API key once, a signed sale webhook, resent with the same id', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const hook = await receiver();
  const { got } = hook;
  const url = hook.url('/tradeshelf');
  const { vendor, buyer, close } = await vendorAndBuyer(browser);
  try {
    await signUp(vendor, 'hook');
    await openStorefront(
      vendor,
      `hooks-${RUN}`,
      `Hook Tools ${RUN}`,
      'Made in the developers walk.',
    );
    await draftIndicator(vendor, PRODUCT, '25.00');
    const productPath = await publishProduct(vendor);
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
    await vendor.getByLabel('Two-factor code').fill(await nextCode());
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

    // A buyer pays for the vendor's product on the payment sandbox.
    await signUp(buyer, 'hookb');
    await buyer.goto(productPath);
    await buyOnSandbox(buyer);

    // The receiver gets the sale, signed (checked by the npm `standardwebhooks` package).
    const verify = (g: Received) =>
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
    await close();
    await hook.close();
  }
});
