import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { expect, test, type Browser, type Download, type Page } from './test.ts';
import { buyOnSandbox } from './shop.ts';
import { draftIndicator, openStorefront, publishProduct, signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';
import { mailbox } from './mailbox.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 29's proof: every purchase delivers. A new vendor adds v1 of an MT5 indicator and a set-up
// guide and publishes; a buyer buys it, downloads v1 (its name and bytes) and reads the guide; the
// vendor publishes v2, the buyer is e-mailed and downloads v2 with v1 still listed; a whole refund
// ends the downloads, and the pages say why. Both screens are checked at 390 px. Serial steps.

const SLOW = 30_000;
const RUN = Date.now().toString(36).slice(-6);
const TITLE = `Session Box ${RUN}`;
const STOREFRONT = `deliver-${RUN}`;
const PHONE = { width: 390, height: 844 };
/** What the vendor uploads: a compiled MetaTrader 5 indicator (binary, no known signature). */
const ex5 = (version: number) =>
  Buffer.concat([Buffer.from([0x4d, 0x51, 0, 5, version, 0]), Buffer.from(`Session Box ${RUN}`)]);
const V1 = { name: 'SessionBox.ex5', bytes: ex5(1) };
const V2 = { name: 'SessionBox.ex5', bytes: ex5(2) };

/** Nothing on the page is wider than the window. */
async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

/** Presses a download button; answers the file's name and bytes as the browser saved them. */
async function download(page: Page, button: RegExp) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: SLOW }) as Promise<Download>,
    page.getByRole('button', { name: button }).first().click(),
  ]);
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

/** Uploads one version for MetaTrader 5 and publishes it with notes, in the product editor. */
async function addVersion(page: Page, version: string, file: typeof V1, notes: string) {
  const files = page.getByTestId('product-files');
  await files.getByLabel('Platform', { exact: true }).selectOption({ label: 'MetaTrader 5' });
  await files.getByLabel('Version number').fill(version);
  await files.getByLabel(/^File for MetaTrader 5/).setInputFiles({
    name: file.name,
    mimeType: 'application/octet-stream',
    buffer: file.bytes,
  });
  const draft = page.getByRole('region', { name: `Draft v${version} for MetaTrader 5` });
  await expect(draft).toBeVisible({ timeout: SLOW });
  await draft.getByRole('textbox', { name: `Release notes for v${version}` }).fill(notes);
  await draft.getByRole('button', { name: `Publish v${version}` }).click();
  const current = page
    .getByRole('region', { name: 'MetaTrader 5 versions' })
    .getByTestId('current-version');
  await expect(current).toContainText(`v${version}`, { timeout: SLOW });
}

test.describe.serial('every purchase delivers', () => {
  let browser: Browser;
  let vendor: Page;
  let buyer: Page;
  let buyerEmail: string;
  let editorUrl: string;
  let productUrl: string;

  test.beforeAll(async ({ browser: b }) => {
    browser = b;
    vendor = await (await browser.newContext()).newPage();
    buyer = await (await browser.newContext({ acceptDownloads: true })).newPage();
  });
  test.afterAll(async () => {
    await vendor?.context().close();
    await buyer?.context().close();
  });

  test('a new vendor with payouts lists an indicator', async () => {
    test.setTimeout(180_000);
    await signUp(vendor, 'dlv', 'deliver-walk-77');
    await openStorefront(
      vendor,
      STOREFRONT,
      `Deliver Tools ${RUN}`,
      'Indicators with files, made in the deliverables walk.',
    );
    // Setting up payouts needs two-factor on and a current code (issue 33, ADR 054).
    const { nextCode } = await turnOnTwoFactor(vendor, SLOW);
    await vendor.goto('/vendor/payouts');
    const account = vendor.getByRole('region', { name: 'Payout account' });
    await expect(account).toContainText('Not started', { timeout: SLOW });
    await vendor.getByLabel('Two-factor code').fill(await nextCode());
    await account.getByRole('button', { name: 'Set up payouts' }).click({ timeout: SLOW });
    await expect(vendor).toHaveURL(/\/sandbox\/connect\//, { timeout: SLOW });
    await vendor.getByLabel('Business or trading name').fill(`Deliver Tools ${RUN}`);
    await vendor.getByLabel('Country').selectOption('US');
    await vendor.getByLabel('Bank account number or IBAN').fill('000123456789');
    await vendor.getByLabel('I accept the payment sandbox’s services agreement.').check();
    await vendor.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(account).toContainText('Active', { timeout: SLOW });

    await draftIndicator(vendor, TITLE, '39.00');
    editorUrl = vendor.url();
  });

  test('the vendor adds v1 for MetaTrader 5 and a guide, and publishes', async () => {
    test.setTimeout(120_000);
    await expect(vendor.getByTestId('product-files')).toContainText('No files yet.', {
      timeout: SLOW,
    });
    await addVersion(vendor, '1.0', V1, 'First release: three sessions.');
    const guide = vendor.getByRole('textbox', { name: 'Set-up guide' });
    await guide.fill(
      `## Install\n\nCopy **${V1.name}** into MQL5/Indicators, then load it on a chart ${RUN}.`,
    );
    // A screenshot for the guide: uploaded, added as Markdown, described by the vendor.
    const shot = await sharp({
      create: { width: 800, height: 450, channels: 3, background: '#1e2433' },
    })
      .png()
      .toBuffer();
    await vendor
      .getByLabel('Add a picture to the guide')
      .setInputFiles({ name: 'inputs.png', mimeType: 'image/png', buffer: shot });
    await expect(guide).toHaveValue(/!\[Describe what this picture shows\]\(\S+\)\n$/, {
      timeout: SLOW,
    });
    await guide.fill(
      (await guide.inputValue()).replace('Describe what this picture shows', 'Inputs tab'),
    );
    await vendor.getByLabel('Updates buyers get').selectOption('lifetime');
    await vendor.getByRole('button', { name: 'Save guide and updates' }).click();
    await expect(vendor.getByText('Delivery settings saved.').first()).toBeVisible({
      timeout: SLOW,
    });
    productUrl = await publishProduct(vendor);

    // The section at 390 px: nothing sideways.
    await vendor.setViewportSize(PHONE);
    await vendor.getByTestId('product-files').scrollIntoViewIfNeeded();
    await noSidewaysScroll(vendor);
    expect(await a11yViolations(vendor)).toEqual([]);
    await vendor.setViewportSize({ width: 1280, height: 800 });
  });

  test('a buyer sees what it delivers, buys it, downloads v1 and reads the guide', async () => {
    test.setTimeout(180_000);
    ({ email: buyerEmail } = await signUp(buyer, 'dlb', 'deliver-walk-77'));
    await buyer.goto(productUrl);
    const promise = buyer.getByTestId('what-you-get');
    await expect(promise).toContainText('Files for MetaTrader 5: v1.0', { timeout: SLOW });
    await expect(promise).toContainText('A set-up guide');
    await expect(promise).toContainText('Lifetime updates');
    await buyOnSandbox(buyer);

    await buyer.goto('/library');
    await buyer.getByRole('button', { name: `Open downloads for ${TITLE}` }).click({
      timeout: SLOW,
    });
    const got = await download(buyer, /^Download for MetaTrader 5 — v1\.0, /);
    expect(got.name).toBe(V1.name);
    expect(got.bytes.equals(V1.bytes)).toBe(true);
    await expect(buyer.getByTestId('release-notes').first()).toContainText('three sessions');
    await expect(buyer.getByTestId('setup-guide')).toContainText(`then load it on a chart ${RUN}`);
    await expect(buyer.getByTestId('setup-guide').locator('h2')).toHaveText('Install');
    const picture = buyer.getByTestId('setup-guide').getByRole('img', { name: 'Inputs tab' });
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(800);
    expect(await a11yViolations(buyer)).toEqual([]);

    // The library with its downloads open, at 390 px.
    await buyer.setViewportSize(PHONE);
    await noSidewaysScroll(buyer);
    await buyer.setViewportSize({ width: 1280, height: 800 });
  });

  test('the vendor publishes v2: the buyer is e-mailed, downloads it, and v1 is still listed', async () => {
    test.setTimeout(180_000);
    await vendor.goto(editorUrl);
    await expect(vendor.getByTestId('current-version')).toContainText('v1.0', { timeout: SLOW });
    await expect(vendor.getByTestId('current-version')).toContainText('1 download');
    await addVersion(vendor, '2.0', V2, 'Adds the Sydney session.');

    await expect
      .poll(() => mailbox.mailsTo(buyerEmail).map((m) => m.subject), { timeout: SLOW })
      .toContainEqual(expect.stringContaining('2.0'));

    await buyer.goto('/library');
    await buyer.getByRole('button', { name: `Open downloads for ${TITLE}` }).click({
      timeout: SLOW,
    });
    const got = await download(buyer, /^Download for MetaTrader 5 — v2\.0, /);
    expect(got.name).toBe(V2.name);
    expect(got.bytes.equals(V2.bytes)).toBe(true);
    await buyer.getByText('Earlier versions').click();
    await expect(
      buyer.getByRole('button', { name: /^Download for MetaTrader 5 — v1\.0, / }),
    ).toBeVisible();

    // The buyer's own switch for these e-mails, off and back on (the way back after the link).
    await buyer.getByRole('button', { name: 'Stop these e-mails' }).click();
    await expect(
      buyer.getByRole('status').filter({ hasText: 'You will not get e-mails about new versions' }),
    ).toBeVisible();
    await buyer.getByRole('button', { name: 'E-mail me new versions' }).click();
    await expect(
      buyer
        .getByRole('status')
        .filter({ hasText: 'New versions of this product will be e-mailed' }),
    ).toBeVisible();
  });

  test('a whole refund ends the downloads, and the pages say why', async () => {
    test.setTimeout(180_000);
    // The buyer's library is open from before the refund. Its files carry the purchase id, which
    // finds the sale in the vendor's list (a copy shared in a group buy names its source).
    const traceId = await buyer.getByText(/^pur_/).first().textContent();
    await vendor.goto('/vendor/sales');
    const filter = vendor.getByRole('form', { name: 'Filter sales' });
    await filter.getByLabel('Purchase id or receipt').fill(traceId!);
    await filter.getByRole('button', { name: 'Apply' }).click();
    await expect(vendor.getByRole('link', { name: /^View the sale of / })).toHaveCount(1, {
      timeout: SLOW,
    });
    await vendor
      .getByRole('link', { name: new RegExp(`^View the sale of ${TITLE} to`) })
      .first()
      .click({ timeout: SLOW });
    const refund = vendor.getByRole('form', { name: 'Refund' });
    await refund
      .getByLabel('Reason (the buyer is told)')
      .fill('Refunded in the deliverables walk.');
    await refund.getByRole('button', { name: 'Refund…' }).click();
    await vendor
      .getByRole('group', { name: 'Confirm the refund' })
      .getByRole('button', { name: 'Refund $39' })
      .click();
    await expect(vendor.getByText('This sale has already been refunded in full.')).toBeVisible({
      timeout: SLOW,
    });

    await buyer
      .getByRole('button', { name: /^Download for MetaTrader 5 — v2\.0, / })
      .first()
      .click();
    await expect(
      buyer.getByText('This purchase was refunded, so its downloads have ended.'),
    ).toBeVisible({ timeout: SLOW });

    await buyer.goto('/orders');
    await buyer
      .getByRole('link', { name: new RegExp(TITLE) })
      .first()
      .click({ timeout: SLOW });
    await expect(buyer.getByTestId('downloads-ended')).toHaveText(
      'This purchase was refunded, so its downloads have ended.',
      { timeout: SLOW },
    );
    await expect(buyer.getByTestId('deliverable-download')).toHaveCount(0);
  });
});
