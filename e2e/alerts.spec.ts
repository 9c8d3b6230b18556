import { expect, test, type Page } from './test.ts';
import { buyOnSandbox } from './shop.ts';
import { receiver } from '../apps/api/test/receiver.ts';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import {
  draftProduct,
  openStorefront,
  publishProduct,
  signUp,
  vendorAndBuyer,
  workspaceNav,
} from './accounts.ts';
import { a11yViolations } from './axe.ts';

// Issue 31's proof: a new vendor lists an alert product; a buyer pays on the payment sandbox,
// opens the feed from the library and picks web + a webhook pointing at a receiver this test runs
// on loopback (the e2e server sets WEBHOOKS_ALLOW_PRIVATE); the vendor sends one alert from the
// workspace form and one through the feed's TradingView webhook URL. Both appear on the buyer's
// page without a reload, and both reach the receiver signed (checked by npm `standardwebhooks`).

const SLOW = 30_000;
const RUN = Date.now().toString(36).slice(-6);
const PRODUCT = `Breakout Pings ${RUN}`;

/** axe on the page as it stands (the live stream keeps the network busy, so no idle wait). */
const violations = (page: Page) => a11yViolations(page, { idle: false });

test('alerts arrive: workspace and TradingView webhook, live in the browser and signed to a webhook', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const hook = await receiver();
  const { got } = hook;
  const endpoint = hook.url('/alerts');
  const { vendor, buyer, close } = await vendorAndBuyer(browser);
  try {
    await signUp(vendor, 'alerts');
    await openStorefront(vendor, `alerts-${RUN}`, `Alert Desk ${RUN}`, 'Made in the alerts walk.');
    await draftProduct(vendor, {
      kind: 'Alert',
      title: PRODUCT,
      summary: 'Breakouts on rising momentum, as they happen.',
      description: 'Alerts when large caps break out on rising momentum.',
      platform: 'TradingView',
      assetClass: 'Stocks',
      price: '19.00',
    });
    const productPath = await publishProduct(vendor);

    // The product page says alerts are delivered, and how.
    await buyer.goto(productPath);
    await expect(buyer.getByTestId('what-you-get')).toContainText(
      'Each alert as the vendor sends it',
      {
        timeout: SLOW,
      },
    );

    await signUp(buyer, 'alertsb');
    await buyer.goto(productPath);
    await buyOnSandbox(buyer);

    // The buyer opens the feed from the library (access lands once the purchase event is
    // delivered) and picks web + webhook.
    await expect
      .poll(
        async () => {
          await buyer.goto('/library');
          return buyer
            .getByRole('link', { name: `Open alerts of ${PRODUCT}` })
            .isVisible({ timeout: 5_000 })
            .catch(() => false);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await buyer.getByRole('link', { name: `Open alerts of ${PRODUCT}` }).click();
    await expect(buyer.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible({
      timeout: SLOW,
    });
    await buyer.getByLabel('Webhook URL (optional)').fill(endpoint);
    await buyer.getByRole('button', { name: 'Save channels' }).click();
    const secretEl = buyer.getByTestId('alert-webhook-secret');
    await expect(secretEl).toHaveText(/^whsec_/, { timeout: SLOW });
    const secret = (await secretEl.textContent())!.trim();
    expect(await violations(buyer)).toEqual([]);

    // From the workspace form.
    await vendor.goto('/vendor');
    await workspaceNav(vendor).getByRole('link', { name: 'Delivery' }).click({ timeout: SLOW });
    await vendor.getByRole('link', { name: /^Open alerts/ }).click({ timeout: SLOW });
    await expect(vendor.getByRole('heading', { level: 2, name: PRODUCT })).toBeVisible({
      timeout: SLOW,
    });
    await vendor.getByLabel('Symbol').fill('NVDA');
    await vendor.getByLabel('Side').selectOption('buy');
    await vendor.getByLabel('Price').fill('131.25');
    await vendor.getByLabel('Text').fill(`Breakout ${RUN} from the workspace`);
    // With a chart picture, uploaded as the form is filled.
    const chart = await sharp({
      create: { width: 960, height: 540, channels: 3, background: '#10203a' },
    })
      .png()
      .toBuffer();
    await vendor
      .getByLabel('Chart picture (optional)')
      .setInputFiles({ name: 'nvda.png', mimeType: 'image/png', buffer: chart });
    await expect(vendor.getByRole('img', { name: 'Chart picture for this alert' })).toBeVisible({
      timeout: SLOW,
    });
    await vendor.getByRole('button', { name: 'Send alert' }).click();
    await expect(vendor.getByText('Alert sent to 1 subscriber.')).toBeVisible({ timeout: SLOW });
    const list = buyer.getByTestId('alert-list');
    await expect(list).toContainText(`Breakout ${RUN} from the workspace`, { timeout: SLOW });
    await expect(list).toContainText('BUY NVDA @ 131.25');
    const picture = list.getByRole('img', { name: 'Chart for BUY NVDA @ 131.25' });
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(960);

    // From the TradingView webhook URL, as TradingView posts a plain-text message.
    const hookUrl = (await vendor.getByTestId('alert-hook-url').textContent())!.trim();
    const posted = await request.post(new URL(hookUrl).pathname, {
      data: `AAPL crossing up ${RUN}`,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    expect(posted.status()).toBe(202);
    await expect(list).toContainText(`AAPL crossing up ${RUN}`, { timeout: SLOW });
    expect(await violations(vendor)).toEqual([]);

    // Both reached the receiver, signed.
    await expect.poll(() => got.length, { timeout: 60_000 }).toBe(2);
    const texts = got.map((g) => {
      const payload = new Webhook(secret).verify(g.body, {
        'webhook-id': String(g.headers['webhook-id']),
        'webhook-timestamp': String(g.headers['webhook-timestamp']),
        'webhook-signature': String(g.headers['webhook-signature']),
      }) as { type: string; data: { alert: { text: string; imageUrl: string | null } } };
      expect(payload.type).toBe('alert.published');
      // The picture travels as an absolute URL (the TradingView one has none).
      if (payload.data.alert.text.includes('from the workspace'))
        expect(payload.data.alert.imageUrl).toMatch(/^http:\/\/.+\/960\.jpg$/);
      else expect(payload.data.alert.imageUrl).toBeNull();
      return payload.data.alert.text;
    });
    expect(texts.sort()).toEqual(
      [`AAPL crossing up ${RUN}`, `Breakout ${RUN} from the workspace`].sort(),
    );
    // The vendor's fan-out shows both delivered.
    await vendor.reload();
    await expect(vendor.getByTestId('vendor-alerts')).toContainText('webhook: 1 delivered', {
      timeout: SLOW,
    });
  } finally {
    await close();
    await hook.close();
  }
});
