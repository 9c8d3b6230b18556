import { expect, test, type Page } from './test.ts';
import { buyOnSandbox, productPath } from './shop.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';

const AFFILIATE = { email: 'affiliate@demo.tradeshelf.test', password: 'tradeshelf-demo' };
const VENDOR = 'Orderflow Pro';
const SLOW = 30_000;
const PRODUCT = 'Volume Profile Sessions';

async function logInAsAffiliate(page: Page) {
  await page.goto('/login?next=/affiliate');
  await page.getByLabel('Email').fill(AFFILIATE.email);
  await page.getByLabel('Password').fill(AFFILIATE.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeVisible({
    timeout: 15_000,
  });
}

const referralRow = (page: Page) =>
  page.getByTestId('referrals-table').getByRole('row').filter({ hasText: PRODUCT });

test('an affiliate link earns commission on a sale, held, then paid out', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  await logInAsAffiliate(page);
  // Under load (other sessions' builds on two cores) a page's data can take a while: waits are long.
  await expect(page.getByRole('heading', { level: 1, name: 'Affiliate dashboard' })).toBeVisible({
    timeout: SLOW,
  });
  // The demo affiliate's months of sales draw the chart; the same numbers are a table for screen readers.
  await expect(page.getByTestId('earnings-chart').locator('svg').first()).toBeVisible({
    timeout: SLOW,
  });
  await expect(
    page.getByRole('table', { name: 'Commission earned per month, after clawbacks' }),
  ).toBeAttached();
  expect(await a11yViolations(page)).toEqual([]);

  // Join an open programme: the link appears in the same row with a copy button (issue 27).
  await page.getByRole('button', { name: `Generate a referral link for ${VENDOR}` }).click();
  const made = page.getByTestId('made-link');
  const link = made.getByRole('textbox', { name: `Referral link for ${VENDOR}` });
  await expect(link).toHaveValue(/\/v\/orderflow-pro\?ref=orderflow-pro-[a-z0-9]+$/, {
    timeout: SLOW,
  });
  const shareUrl = new URL(await link.inputValue());
  await expect(
    made.getByRole('button', { name: `Copy the referral link for ${VENDOR}` }),
  ).toBeFocused();

  // A fresh buyer arrives through the link, signs up and buys with the sandbox's Pay.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await buyer.goto(shareUrl.pathname + shareUrl.search);
  await expect
    .poll(async () => (await buyerContext.cookies()).find((c) => c.name === 'referral_id')?.value)
    .toBe(shareUrl.searchParams.get('ref'));
  await signUp(buyer, 'ref', 'referred-buyer-77');
  // Someone who never connected a payout account: the return page says what the provider said.
  await buyer.goto('/affiliate/connected');
  await expect(buyer.getByRole('alert')).toHaveText('Connect your payout account first.', {
    timeout: SLOW,
  });
  await buyer.goto(await productPath(buyer.request, PRODUCT));
  await buyOnSandbox(buyer);
  await buyerContext.close();

  // The commission is on hold on the affiliate's dashboard: 25% of $129.
  await page.reload();
  await expect(referralRow(page)).toContainText('$32.25', { timeout: SLOW });
  await expect(referralRow(page)).toContainText('On hold until');
  const link2 = page.getByTestId('share-link').filter({ hasText: VENDOR });
  await expect(link2).toContainText('1 clicks · 1 sales', { timeout: SLOW });

  // The test clock moves past the hold (local sandbox page), and the commission is available.
  await page.goto('/sandbox/affiliates');
  await page.getByRole('button', { name: /^Advance \d+ days$/ }).click();
  await expect(page.locator('#offset')).not.toHaveText('0 days');
  await page.goto('/affiliate');
  await expect(referralRow(page)).toContainText('Available', { timeout: SLOW });
  const available = await page
    .getByTestId('affiliate-stats')
    .locator('dt', { hasText: 'Available' })
    .locator('xpath=following-sibling::dd[1]')
    .innerText();

  // Pay out: the withdrawal is listed first, paid, and the balance is spent.
  // Asked first, with the amount and the account.
  await page.getByRole('button', { name: 'Request payout' }).click();
  const confirmText = page.getByTestId('payout-confirm-text');
  await expect(confirmText).toContainText(available);
  // The account's last characters, to find this payout's transfer among other specs' in the sandbox
  // (the row reads "Transfer $32.25 to acct_…ab12", its id run on without a space).
  const accountEnd = /••••(\w+)/.exec(await confirmText.innerText())?.[1];
  expect(accountEnd).toBeTruthy();
  await page.getByRole('button', { name: `Pay out ${available}` }).click();
  const first = page.getByTestId('withdrawals-table').getByRole('row').nth(1);
  await expect(first).toContainText(available, { timeout: SLOW });
  await expect(first).toContainText('Paid');
  await expect(page.getByRole('button', { name: 'Request payout' })).toBeDisabled({
    timeout: SLOW,
  });
  await expect(page.getByText('Nothing is available to pay out yet.')).toBeVisible();
  expect(await a11yViolations(page)).toEqual([]);

  // The bank refuses it and Stripe reverses the transfer (sandbox dashboard): the payout says so and
  // the money is back.
  await page.goto('/sandbox/payments');
  await page
    .getByRole('row')
    .filter({
      hasText: new RegExp(`Transfer ${available.replace('$', '\\$')} to \\w*${accountEnd}`),
    })
    .getByRole('button', { name: 'Fail transfer' })
    .click();
  await page.goto('/affiliate');
  await expect(page.getByTestId('withdrawals-table').getByRole('row').nth(1)).toContainText(
    'Stripe reversed the transfer.',
    { timeout: SLOW },
  );
  await expect(page.getByRole('button', { name: 'Request payout' })).toBeEnabled();

  // The onboarding return page shows the callback's message.
  await page.goto('/affiliate/connected');
  await expect(page.getByRole('status').filter({ hasText: 'Payouts go to it' })).toBeVisible({
    timeout: SLOW,
  });

  // Put the clock back for specs that run after this one.
  await page.goto('/sandbox/affiliates');
  await page.getByRole('button', { name: 'Reset the clock' }).click();
  await expect(page.locator('#offset')).toHaveText('0 days');
});
