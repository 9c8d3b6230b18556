import { expect, test, type APIRequestContext } from './test.ts';
import { recordViolations } from './csp-violations.ts';
import { buyOnSandbox, findProduct } from './shop.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';

// Issue 17, the buyer's side: an app bought with the sandbox's checkout, its key copied from the
// apps page, a device activated by the app (the public licence API), listed, then deactivated.

const APP = 'Position Size Calculator Pro';
const KEY_FORMAT = /^TS-[0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){3}$/;

/** What the vendor's app learns from the public API about this device. */
async function validate(request: APIRequestContext, key: string, fingerprint: string) {
  const res = await request.post('/api/v1/licence/validate', { data: { key, fingerprint } });
  expect(res.status()).toBe(200);
  return (await res.json()) as { valid: boolean; device: { activated: boolean } };
}

test('buy an app, copy its key, activate a device from the app, see it, deactivate it', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const refused = await recordViolations(page);
  await signUp(page, 'apps', 'licence-buyer-77');

  // Nothing yet: the page says so and points at the apps category.
  await page.getByRole('banner').getByRole('link', { name: 'Apps', exact: true }).click();
  await expect(page).toHaveURL('/apps');
  await expect(page.getByRole('heading', { level: 1, name: 'Apps and licences' })).toBeVisible();
  await expect(page.getByText('You have no apps yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse apps' })).toHaveAttribute(
    'href',
    '/search?category=apps',
  );
  expect(await a11yViolations(page)).toEqual([]);

  // Buy the app with the sandbox's hosted checkout.
  const product = await findProduct(request, APP);
  await page.goto(`/p/${product.id}/${product.slug}`);
  await buyOnSandbox(page);

  // The receipt lists the licence, with the way to manage it: the entitlement is written with the
  // payment, so the order shows it as soon as it loads.
  await page.locator('#main').getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/orders\/[^/]+$/);
  const manage = page.getByTestId('licence-manage-link');
  await expect(manage).toBeVisible({ timeout: 30_000 });
  await manage.click();
  await expect(page).toHaveURL('/apps');

  const card = page.getByTestId('licence-card').filter({ hasText: APP });
  await expect(card.getByRole('link', { name: APP })).toHaveAttribute(
    'href',
    `/p/${product.id}/${product.slug}`,
  );
  await expect(card.getByTestId('licence-status')).toHaveText('Active');
  await expect(card.getByTestId('licence-activations')).toHaveText('(0 of 3 in use)');
  await expect(card.getByTestId('licence-no-devices')).toBeVisible();

  // Copy: the key reaches the clipboard and the page says so.
  await card.getByRole('button', { name: `Copy the key for ${APP}` }).click();
  await expect(card.getByTestId('licence-copied')).toHaveText('Copied');
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(KEY_FORMAT);
  await expect(card.getByRole('textbox', { name: 'Licence key' })).toHaveValue(key);

  // The app activates this machine with the key alone.
  const fingerprint = `e2e-laptop-${Date.now()}`;
  const activated = await request.post('/api/v1/licence/activate', {
    data: { key, fingerprint, name: 'Trading laptop', binding: 'device' },
  });
  expect(activated.status()).toBe(200);
  expect(await activated.json()).toMatchObject({
    created: true,
    licence: { activationsUsed: 1, maxActivations: 3 },
  });
  expect(await validate(request, key, fingerprint)).toMatchObject({
    valid: true,
    device: { activated: true },
  });

  // Back on the page, the device is listed with what it is bound to.
  await page.reload();
  const device = card.getByTestId('licence-device').filter({ hasText: 'Trading laptop' });
  // Signed-in pages render on the client after the session check: give a loaded machine time.
  await expect(device).toContainText(`Device fingerprint: ${fingerprint}`, { timeout: 20_000 });
  await expect(device).toContainText('Last seen');
  await expect(card.getByTestId('licence-activations')).toHaveText('(1 of 3 in use)');
  expect(await a11yViolations(page)).toEqual([]);

  // Deactivate asks first, then frees the slot; the app is told it is no longer activated.
  await device.getByRole('button', { name: 'Deactivate Trading laptop' }).click();
  const step = card.getByRole('group', { name: 'Deactivate “Trading laptop”?' });
  await expect(step).toBeFocused();
  expect(await a11yViolations(page)).toEqual([]);
  await step.getByTestId('licence-device-deactivate-confirm').click();
  // The toast first: it goes after a few seconds.
  await expect(page.getByText('“Trading laptop” deactivated.')).toBeVisible();
  await expect(card.getByTestId('licence-device')).toHaveCount(0);
  await expect(card.getByTestId('licence-activations')).toHaveText('(0 of 3 in use)');
  expect(await validate(request, key, fingerprint)).toMatchObject({
    valid: false,
    device: { activated: false },
  });
  await page.reload();
  await expect(card.getByTestId('licence-activations')).toHaveText('(0 of 3 in use)', {
    timeout: 20_000,
  });

  // Download: a signed link to the app's build, downloaded under its name.
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: `Download ${APP}` }).click();
  expect((await download).suggestedFilename()).toBe('SizeCalc-2.0-win.zip');

  // The library links here from the purchase too.
  await page.getByRole('banner').getByRole('link', { name: 'Library' }).click();
  await page.getByRole('link', { name: `Manage licence for ${APP}` }).click();
  await expect(page).toHaveURL('/apps');
  await expect(card).toBeVisible();
  expect(refused).toEqual([]);
});

test('the demo buyer sees the licence the demo data grants, active on one MetaTrader account', async ({
  page,
}) => {
  // Read only: the demo buyer's licence must stay as seeded for anyone trying the app.
  await page.goto('/login?next=/apps');
  await page.getByLabel('Email').fill('buyer@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/apps', { timeout: 15_000 });
  const card = page.getByTestId('licence-card').filter({ hasText: 'Grid Guardian EA' });
  await expect(card.getByTestId('licence-key')).toHaveValue(KEY_FORMAT);
  await expect(card.getByTestId('licence-device')).toContainText('MetaTrader account: 50012345');
  await expect(card.getByTestId('licence-activations')).toHaveText('(1 of 3 in use)');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await a11yViolations(page)).toEqual([]);
});
