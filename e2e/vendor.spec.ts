import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Browser, type Page } from './test.ts';
import { buyOnSandbox } from './shop.ts';
import { signUp } from './accounts.ts';
import { pdfText } from '../apps/api/test/pdf.ts';
import { a11yViolations } from './axe.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 19's proof: a new user runs a business alone through the vendor workspace. They become a
// vendor, set up a storefront and sandbox payouts, list a course (with a video lesson) and a Discord
// community bound to a sandbox server, publish both; a buyer finds them by search and buys both; the
// vendor sees the sales on the chart and refunds the community; the buyer loses the Discord role.
// One walk in serial steps: a failing step names the part of the workspace that broke.

// Under load (other sessions' builds on two cores) pages can take a while: waits are long.
const SLOW = 30_000;
const RUN = Date.now().toString(36).slice(-6);
const COURSE = `Walkthrough Course ${RUN}`;
const COMMUNITY = `Walkthrough Lounge ${RUN}`;
const SERVER = `Walkthrough Server ${RUN}`;
const STOREFRONT = `walk-${RUN}`;
const VIDEO = path.resolve('apps/api/src/modules/courses/demo-media/momentum-intro.mp4');

/** The workspace's side navigation. */
const nav = (page: Page) => page.getByRole('navigation', { name: 'Vendor workspace' });

/** A plain HTML sandbox page, read again until `check` holds. */
async function expectOnPage(page: Page, url: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout: SLOW });
}

/** Fills and saves a new product of `kind` with one one-time plan; answers its editor's URL. */
async function createProduct(
  page: Page,
  p: { kind: string; title: string; summary: string; price: string },
) {
  await page.goto('/vendor/products');
  await page.getByRole('link', { name: 'New product' }).first().click();
  await expect(page).toHaveURL('/vendor/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible({
    timeout: SLOW,
  });
  await page.getByLabel('Kind').selectOption({ label: p.kind });
  await page.getByLabel('Title').fill(p.title);
  await page.getByLabel('Summary').fill(p.summary);
  await page
    .getByRole('textbox', { name: 'Description' })
    .fill(`## What you get\n\n${p.summary}\n\n- made in the vendor walk`);
  await page.getByRole('checkbox', { name: 'Stocks' }).check();
  await page.getByRole('button', { name: 'Add a plan' }).click();
  await page.getByLabel('Price').fill(p.price);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/vendor\/products\/(?!new)[^/]+$/, { timeout: SLOW });
  await expect(page.getByRole('heading', { level: 1, name: p.title })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  return page.url();
}

async function publish(page: Page, editorUrl: string, title: string) {
  await page.goto(editorUrl);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible({
    timeout: SLOW,
  });
  await page.getByRole('button', { name: 'Publish…' }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('Published', { exact: true })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('button', { name: 'Unpublish…' })).toBeVisible();
}

test.describe.serial('the vendor workspace, end to end', () => {
  let browser: Browser;
  let vendor: Page;
  let buyer: Page;
  let vendorDiscord: string;
  let courseEditor: string;
  let communityEditor: string;
  let serverUrl: string;
  let buyerName: string;
  let buyerDiscord: string;

  test.beforeAll(async ({ browser: b }) => {
    browser = b;
    vendor = await (await browser.newContext()).newPage();
    buyer = await (await browser.newContext()).newPage();
  });
  test.afterAll(async () => {
    await vendor?.context().close();
    await buyer?.context().close();
  });

  test('a new user becomes a vendor', async () => {
    test.setTimeout(120_000);
    const { username } = await signUp(vendor, 'ven', 'vendor-walk-77');
    vendorDiscord = `${username}_dc`;
    await vendor.goto('/vendor');
    await expect(vendor.getByRole('heading', { name: 'Sell on Tradeshelf' })).toBeVisible({
      timeout: SLOW,
    });
    await expect(nav(vendor)).toHaveCount(0);
    await vendor.getByRole('button', { name: 'Become a vendor' }).click();
    await expect(vendor.getByText('You are now a vendor. Set up your storefront.')).toBeVisible({
      timeout: SLOW,
    });
    await expect(nav(vendor)).toBeVisible();
    // The vendor area's cookies (docs/product.md#vendor-cookies).
    const cookies = (await vendor.context().cookies()).map((c) => c.name);
    expect(cookies).toEqual(expect.arrayContaining(['auth_token_vendor', 'user_details']));
  });

  test('sets up a storefront and completes sandbox payouts onboarding', async () => {
    test.setTimeout(120_000);
    await nav(vendor).getByRole('link', { name: 'Storefront' }).click();
    await expect(vendor).toHaveURL('/vendor/storefront');
    await vendor.getByLabel('Storefront address').fill(STOREFRONT);
    await vendor.getByLabel('Name', { exact: true }).fill(`Walkthrough Tools ${RUN}`);
    await vendor.getByLabel('Bio').fill('Courses and a trading room, made in the vendor walk.');
    await vendor.getByRole('button', { name: 'Create storefront' }).click();
    await expect(
      vendor.getByText('Storefront created. Add pictures and set up payouts next.'),
    ).toBeVisible({ timeout: SLOW });
    expect(await a11yViolations(vendor)).toEqual([]);

    // Setting up payouts needs two-factor on and a current code (issue 33, ADR 054).
    const { nextCode } = await turnOnTwoFactor(vendor, SLOW);
    await vendor.goto('/vendor/payouts');
    const account = vendor.getByRole('region', { name: 'Payout account' });
    await expect(account).toContainText('Not started', { timeout: SLOW });
    await vendor.getByLabel('Two-factor code').fill(await nextCode());
    await account.getByRole('button', { name: 'Set up payouts' }).click();
    await expect(vendor).toHaveURL(/\/sandbox\/connect\//, { timeout: SLOW });
    await expect(vendor.getByRole('heading', { name: 'Set up payouts' })).toBeVisible();

    // Leave half-way: the workspace says, in words, what the provider still needs.
    await vendor.getByRole('link', { name: 'Save and return later' }).click();
    await expect(vendor).toHaveURL('/vendor/payouts?onboarding=later');
    await expect(
      vendor.getByText('You can continue onboarding whenever you are ready.'),
    ).toBeVisible();
    await expect(account).toContainText('Onboarding incomplete', { timeout: SLOW });
    await expect(account.getByRole('heading', { name: 'Still needed' })).toBeVisible();
    await expect(account.getByRole('listitem').first()).toHaveText(/\w+ \w+/);
    await vendor.getByLabel('Two-factor code').fill(await nextCode());
    await account.getByRole('button', { name: 'Continue onboarding' }).click();
    await expect(vendor).toHaveURL(/\/sandbox\/connect\//, { timeout: SLOW });
    await vendor.getByLabel('Business or trading name').fill(`Walkthrough Tools ${RUN}`);
    await vendor.getByLabel('Country').selectOption('US');
    await vendor.getByLabel('Bank account number or IBAN').fill('000123456789');
    await vendor.getByLabel('I accept the payment sandbox’s services agreement.').check();
    await vendor.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(vendor).toHaveURL('/vendor/payouts?onboarding=done', { timeout: SLOW });
    await expect(account).toContainText('Active', { timeout: SLOW });
    await expect(account.getByRole('heading', { name: 'Still needed' })).toHaveCount(0);
    await expect(account.getByRole('button')).toHaveCount(0);
    expect(await a11yViolations(vendor)).toEqual([]);
  });

  test('creates a course with a video lesson and a Discord community bound to a sandbox server', async () => {
    test.setTimeout(240_000);
    courseEditor = await createProduct(vendor, {
      kind: 'Course',
      title: COURSE,
      summary: 'A short course with one video lesson.',
      price: '49.00',
    });
    // The course builder: a module, a lesson and its video, uploaded from the lesson's editor.
    await vendor.getByRole('link', { name: 'Build the course' }).click();
    await expect(vendor).toHaveURL(/\/vendor\/courses\/[^/]+$/);
    await expect(vendor.getByRole('heading', { level: 1, name: COURSE })).toBeVisible({
      timeout: SLOW,
    });
    await vendor.getByLabel('New module title').fill('Getting started');
    await vendor.getByRole('button', { name: 'Add module' }).click();
    await expect(vendor.getByRole('heading', { level: 2, name: 'Getting started' })).toBeVisible({
      timeout: SLOW,
    });
    await vendor.getByLabel('New lesson in Getting started').fill('Welcome video');
    await vendor.getByRole('button', { name: 'Add lesson' }).click();
    await vendor
      .getByRole('button', { name: 'Edit lesson Welcome video' })
      .click({ timeout: SLOW });
    await vendor.getByLabel('Upload a video').setInputFiles(VIDEO);
    await expect(vendor.getByText('momentum-intro.mp4 uploaded.')).toBeVisible({ timeout: SLOW });
    await expect(vendor.getByText(/^momentum-intro\.mp4 · \d+ KB$/)).toBeVisible();
    await expect(vendor.getByText(/1 module · 1 lesson · 1 video/)).toBeVisible();
    expect(await a11yViolations(vendor)).toEqual([]);

    communityEditor = await createProduct(vendor, {
      kind: 'Discord community',
      title: COMMUNITY,
      summary: 'A members-only trading room on Discord.',
      price: '19.00',
    });

    // A server of the vendor's own in the Discord sandbox, with roles to give.
    await vendor.goto('/sandbox/discord');
    await vendor.getByLabel('Sign in as').fill(vendorDiscord);
    await vendor.getByRole('button', { name: 'Sign in' }).click();
    await vendor.getByLabel('Server name').fill(SERVER);
    await vendor.getByLabel('Roles, top first, separated by commas').fill('VIP, Member');
    await vendor.getByRole('button', { name: 'Create server' }).click();
    await expect(vendor.getByRole('heading', { level: 1, name: SERVER })).toBeVisible();
    serverUrl = new URL(vendor.url()).pathname;

    // Add the bot from the workspace: Discord's page asks which server, then comes back.
    await vendor.goto(communityEditor);
    await vendor.getByRole('link', { name: 'Set up Discord delivery' }).click();
    await expect(vendor).toHaveURL('/vendor/delivery/discord');
    await vendor.getByRole('button', { name: 'Add the bot to a server' }).click();
    await expect(vendor).toHaveURL(/\/sandbox\/discord\/oauth2\/authorize\?/, { timeout: SLOW });
    await vendor.getByLabel('Add to server').selectOption({ label: SERVER });
    await vendor.getByRole('button', { name: 'Authorize' }).click();
    await expect(
      vendor.getByText(`The bot is in ${SERVER}. Bind a product to one of its roles below.`),
    ).toBeVisible({ timeout: SLOW });
    await expect(vendor).toHaveURL('/vendor/delivery/discord');

    // Bind the community to the VIP role.
    const form = vendor.getByRole('region', { name: 'Bind a product to roles' });
    await form.getByLabel('Community product').selectOption({ label: COMMUNITY });
    await form.getByLabel('Server').selectOption({ label: SERVER });
    await form.getByRole('checkbox', { name: /^VIP/ }).check({ timeout: SLOW });
    await form.getByRole('button', { name: 'Bind product' }).click();
    await expect(vendor.getByText(`Bound to VIP in ${SERVER}.`)).toBeVisible({ timeout: SLOW });
    await expect(vendor.getByText(`${SERVER}: VIP`)).toBeVisible({ timeout: SLOW });
    expect(await a11yViolations(vendor)).toEqual([]);
  });

  test('publishes both', async () => {
    test.setTimeout(120_000);
    await publish(vendor, courseEditor, COURSE);
    await publish(vendor, communityEditor, COMMUNITY);
    await vendor.goto('/vendor/products');
    for (const title of [COURSE, COMMUNITY])
      await expect(vendor.getByRole('row').filter({ hasText: title })).toContainText('Published', {
        timeout: SLOW,
      });
    expect(await a11yViolations(vendor)).toEqual([]);
  });

  test('a buyer finds them by search and buys both', async () => {
    test.setTimeout(240_000);
    ({ username: buyerName } = await signUp(buyer, 'buy', 'vendor-walk-77'));
    for (const [title, button] of [
      [COURSE, /^Buy now · \$49/],
      [COMMUNITY, /^Buy now · \$19/],
    ] as const) {
      await buyer.goto('/');
      const search = buyer.getByLabel('Search the marketplace');
      await search.fill(title);
      await search.press('Enter');
      await expect(buyer).toHaveURL(/\/search\?q=/);
      await buyer.getByRole('link', { name: title }).first().click({ timeout: SLOW });
      // Exact: the results page's own heading ("Results for “…”") holds the title too.
      await expect(buyer.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible({
        timeout: SLOW,
      });
      await buyOnSandbox(buyer, button);
    }

    // The course plays: its lesson's video is there.
    await buyer.goto('/courses');
    const card = buyer.getByTestId('course-card').filter({ hasText: COURSE });
    await expect(card).toBeVisible({ timeout: SLOW });
    await card.getByRole('link').first().click();
    await expect(buyer.getByRole('heading', { level: 1, name: COURSE })).toBeVisible({
      timeout: SLOW,
    });
    await buyer
      .getByRole('link', { name: /Welcome video/ })
      .first()
      .click();
    // The uploaded video plays (muted, as browsers allow).
    const video = buyer.getByTestId('lesson-video');
    await expect(video).toBeVisible({ timeout: SLOW });
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      void v.play();
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: SLOW })
      .toBeGreaterThan(0.5);
    await video.evaluate((v: HTMLVideoElement) => v.pause());

    // Discord: connect in the sandbox; the platform adds the buyer to the vendor's server with VIP.
    await buyer.goto('/library');
    const community = buyer.getByTestId('community-card').filter({ hasText: COMMUNITY });
    await expect(community).toHaveAttribute('data-health', 'needs_link', { timeout: SLOW });
    await buyer.getByTestId('discord-connect').click();
    await expect(buyer).toHaveURL(/\/sandbox\/discord\/oauth2\/authorize\?/);
    buyerDiscord = `${buyerName}_dc`;
    await buyer.getByLabel('Signed in as').fill(buyerDiscord);
    await buyer.getByRole('button', { name: 'Authorize' }).click();
    await expect(buyer).toHaveURL('/library', { timeout: SLOW });
    await expect(community).toHaveAttribute('data-health', 'active', { timeout: SLOW });
    await expect(community).toContainText('Role: VIP');
    await expectOnPage(buyer, serverUrl, async () => {
      const row = buyer.getByRole('row').filter({ hasText: buyerDiscord });
      await expect(
        row.getByRole('button', { name: `Remove VIP from ${buyerDiscord}` }),
      ).toHaveCount(1, { timeout: 1000 });
    });
  });

  test('the vendor sees the sales on the chart and refunds the community', async () => {
    test.setTimeout(180_000);
    await vendor.goto('/vendor');
    await nav(vendor).getByRole('link', { name: 'Analytics' }).click();
    await expect(vendor).toHaveURL(/\/vendor\/analytics/);
    const totals = vendor.getByRole('list', { name: 'Totals in USD' });
    await expect(totals.getByRole('listitem').filter({ hasText: 'Gross revenue' })).toContainText(
      '$68',
      { timeout: SLOW },
    );
    await expect(totals).toContainText('2 sales');
    const charts = vendor.getByTestId('analytics-charts');
    await expect(
      charts.locator('figure').filter({ hasText: 'Sales' }).locator('svg').first(),
    ).toBeVisible({ timeout: SLOW });
    // A bar is drawn for today's sales.
    await expect(
      charts
        .locator('figure')
        .filter({ hasText: /^Sales/ })
        .locator('.recharts-bar-rectangle path'),
    ).not.toHaveCount(0);

    expect(await a11yViolations(vendor)).toEqual([]);

    // Sales → the community's sale → refund it all.
    await nav(vendor).getByRole('link', { name: 'Sales' }).click();
    await expect(vendor).toHaveURL('/vendor/sales');
    const sale = vendor.getByRole('link', {
      name: new RegExp(`^View the sale of ${COMMUNITY} to`),
    });
    await sale.first().click({ timeout: SLOW });
    await expect(vendor).toHaveURL(/\/vendor\/sales\/[^/]+$/);
    await expect(vendor.getByRole('heading', { level: 1, name: COMMUNITY })).toBeVisible({
      timeout: SLOW,
    });
    // The seller's copy of the invoice, read back by PDF.js.
    const [download] = await Promise.all([
      vendor.waitForEvent('download'),
      vendor.getByRole('button', { name: 'Download invoice (PDF)' }).click(),
    ]);
    const invoiceText = await pdfText(await readFile((await download.path())!));
    expect(invoiceText).toContain('Seller’s copy');
    expect(invoiceText).toContain(COMMUNITY);
    const refund = vendor.getByRole('form', { name: 'Refund' });
    await refund.getByLabel('Reason (the buyer is told)').fill('Refunded in the vendor walk.');
    await refund.getByRole('button', { name: 'Refund…' }).click();
    const confirm = vendor.getByRole('group', { name: 'Confirm the refund' });
    await expect(confirm).toContainText('ends their access');
    await confirm.getByRole('button', { name: 'Refund $19' }).click();
    // The sale reads as refunded in full, with the reason the buyer is told.
    const refunds = vendor.getByRole('region', { name: 'Refund' });
    await expect(refunds.getByRole('listitem')).toContainText('$19.00 · Refunded · ', {
      timeout: SLOW,
    });
    await expect(refunds.getByRole('listitem')).toContainText('“Refunded in the vendor walk.”');
    // What was sent stays said, above why nothing is left to refund.
    await expect(refunds.getByRole('status')).toHaveText([
      'Refund of $19 sent to the payment provider.',
      'This sale has already been refunded in full.',
    ]);
    await expect(vendor.getByRole('region', { name: 'Money' })).toContainText('Refunded$19.00');
    expect(await a11yViolations(vendor)).toEqual([]);

    // The refund shows on the analytics too.
    await vendor.goto('/vendor/analytics');
    await expect(
      vendor
        .getByRole('list', { name: 'Totals in USD' })
        .getByRole('listitem')
        .filter({ hasText: 'Refunds' }),
    ).toContainText('1 refund', { timeout: SLOW });
  });

  test('the buyer loses that access: the role goes and the library says it ended', async () => {
    test.setTimeout(120_000);
    await buyer.goto('/library');
    const community = buyer.getByTestId('community-card').filter({ hasText: COMMUNITY });
    await expect(async () => {
      await buyer.reload();
      await expect(community).toHaveAttribute('data-health', 'ended', { timeout: 2000 });
    }).toPass({ timeout: SLOW });
    await expect(community.getByTestId('community-health')).toContainText(
      'Ended: the purchase was refunded.',
    );
    await expect(community.getByRole('button')).toHaveCount(0);
    await expectOnPage(buyer, serverUrl, async () => {
      const row = buyer.getByRole('row').filter({ hasText: buyerDiscord });
      await expect(row).toHaveCount(1, { timeout: 1000 });
      await expect(
        row.getByRole('button', { name: `Remove VIP from ${buyerDiscord}` }),
      ).toHaveCount(0, { timeout: 1000 });
    });
    // The course bought alongside is untouched.
    await buyer.goto('/courses');
    await expect(buyer.getByTestId('course-card').filter({ hasText: COURSE })).toBeVisible({
      timeout: SLOW,
    });
  });
});
