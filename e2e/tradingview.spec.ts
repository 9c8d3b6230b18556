import { expect, test, type APIRequestContext } from './test.ts';
import { buyOnSandbox, findProduct } from './shop.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';
import { mailbox } from './mailbox.ts';

// Issue 17: a TradingView indicator that delivers an invite-only script (ADR 034). The library asks
// for the TradingView username, the vendor's queue gets the task (and an e-mail), the vendor
// completes it through the API, and the library says the access is active.

const INDICATOR = 'Supertrend Ribbon';
const VENDOR = { email: 'vendor@demo.tradeshelf.test', password: 'tradeshelf-demo' };

/** The vendor's side, through the API (its screens come with the vendor workspace). */
async function vendorToken(request: APIRequestContext) {
  const res = await request.post('/auth/login', { data: VENDOR });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

test('buy an indicator, give the TradingView username in the library, get access when the vendor adds it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'tv', 'tradingview-77');
  const product = await findProduct(request, INDICATOR);

  // The buy box says what the indicator delivers on TradingView; the name may wait.
  await page.goto(`/p/${product.id}/${product.slug}`);
  const box = page.getByTestId('tradingview-checkout');
  await expect(box).toContainText('Delivers an invite-only TradingView script');
  await expect(box.getByLabel('TradingView username (optional)')).toBeVisible();
  await buyOnSandbox(page, /^(Subscribe|Buy now) · /);

  // The library asks for the username.
  await page.goto('/library');
  const card = page.getByTestId('tradingview-card').filter({ hasText: INDICATOR });
  await expect(card).toHaveAttribute('data-status', 'needs_username');
  await expect(card.getByTestId('tradingview-status')).toContainText(
    'Add your TradingView username to get access',
  );
  expect(await a11yViolations(page)).toEqual([]);

  const input = page.getByLabel('TradingView username', { exact: true });
  await input.fill('not valid!');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/Use the @username from your TradingView profile/)).toBeVisible();
  const name = `Ribbon_${Date.now() % 1_000_000}`;
  await input.fill(`@${name}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card).toHaveAttribute('data-status', 'waiting');
  await expect(card.getByTestId('tradingview-status')).toContainText(
    'Waiting for Alpha Edge Labs to add you on TradingView',
  );
  await expect(page.getByTestId('tradingview-username')).toHaveText(name);
  expect(await a11yViolations(page)).toEqual([]);

  // The vendor is told by e-mail and finds the task in the queue.
  await expect
    .poll(() => mailbox.mailsTo(VENDOR.email).map((m) => m.subject), { timeout: 20_000 })
    .toContain(`TradingView: add ${name} to ${INDICATOR}`);
  const token = await vendorToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const queue = await request.get('/api/v1/vendor/tradingview/tasks?status=pending&limit=100', {
    headers,
  });
  expect(queue.ok()).toBe(true);
  const task = (
    (await queue.json()) as { tasks: Array<{ id: string; username: string }> }
  ).tasks.find((t) => t.username === name);
  expect(task, `task for ${name}`).toBeDefined();
  const done = await request.post(`/api/v1/vendor/tradingview/tasks/${task!.id}/complete`, {
    headers,
    data: { note: 'Added on TradingView' },
  });
  expect(done.ok()).toBe(true);

  // The library reads again while it waits: active without a reload.
  await expect(card).toHaveAttribute('data-status', 'active', { timeout: 20_000 });
  await expect(card.getByTestId('tradingview-status')).toContainText('Active');
});
