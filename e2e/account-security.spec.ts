import { expect, test, type Page } from './test.ts';
import { EMAIL_CHANGE_CONFIRM_PATH } from '@tradeshelf/contract/client';
import { a11yViolations } from './axe.ts';
import { mailbox } from './mailbox.ts';
import { turnOnTwoFactor } from './two-factor.ts';

// Issue 33 (ADR 058): one new user signed in on two browsers. The first lists its devices and logs
// the other out, which lands on the log-in page at its next navigation; then it changes its e-mail
// through the link mailed to the new address, and its username. The first browser is a 390 px phone.
const SLOW = 30_000;
const PASSWORD = 'account-controls-9';

const banner = (page: Page) => page.getByRole('banner');
const signedIn = (page: Page) =>
  expect(banner(page).getByRole('button', { name: 'Log out' })).toBeVisible({ timeout: SLOW });
const noSidewaysScroll = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(page.viewportSize()!.width);

test('devices, log out another one, change e-mail by the mailed link, change username', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now() % 100_000_000;
  const email = `controls-${stamp}@example.com`;
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const laptop = await browser.newContext();
  try {
    const page = await phone.newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await signedIn(page);
    await page.getByPlaceholder('Enter your username').fill(`ctl${stamp}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0, { timeout: SLOW });

    // The same account on a second browser.
    const other = await laptop.newPage();
    await other.goto('/login');
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Log in' }).click();
    await signedIn(other);

    // Devices: both sign-ins, this one marked; the other has its Log out.
    await page.goto('/account');
    const devices = page.getByRole('region', { name: 'Devices' });
    const rows = devices.getByTestId('device-row');
    await expect(rows).toHaveCount(2, { timeout: SLOW });
    await expect(devices.getByText('This device')).toHaveCount(1);
    await expect(rows.first()).toContainText('Chrome on Linux');
    await expect(rows.first()).toContainText('127.0.0.x');
    await noSidewaysScroll(page);
    expect(await a11yViolations(page)).toEqual([]);

    // By keyboard: the row's Log out opens a confirm step that takes the focus.
    const logOutOther = devices.getByRole('button', { name: /^Log out Chrome on Linux/ });
    await expect(logOutOther).toHaveCount(1);
    await logOutOther.focus();
    await page.keyboard.press('Enter');
    const step = devices.getByRole('group', { name: /^Log out Chrome on Linux/ });
    await expect(step).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(logOutOther).toBeFocused();
    await logOutOther.click();
    await step.getByRole('button', { name: 'Log out', exact: true }).click();
    await expect(rows).toHaveCount(1, { timeout: SLOW });
    await expect(rows.first()).toContainText('This device');

    // The other browser is sent to log in at its next navigation.
    await other.goto('/orders');
    await expect(other).toHaveURL(/\/login/, { timeout: SLOW });
    await expect(banner(other).getByRole('button', { name: 'Log out' })).toHaveCount(0);

    // E-mail: a bad address is said at the field; then the link goes to the new address.
    const section = page.getByRole('region', { name: 'E-mail' });
    await section.getByLabel('Email').fill('not-an-address');
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(section.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true', {
      timeout: SLOW,
    });
    const next = `moved-${stamp}@example.com`;
    await section.getByLabel('Email').fill(next);
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(section.getByText('Check the new address')).toBeVisible({ timeout: SLOW });
    await expect
      .poll(() => mailbox.mailsTo(email).map((m) => m.subject), { timeout: SLOW })
      .toContain('A change of your Tradeshelf e-mail address was requested');
    let link: string | null = null;
    await expect
      .poll(() => (link = mailbox.linkTo(next, EMAIL_CHANGE_CONFIRM_PATH)), { timeout: SLOW })
      .not.toBeNull();
    await page.goto(link!);
    await page.getByRole('button', { name: 'Confirm new e-mail' }).click();
    await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible({
      timeout: SLOW,
    });
    expect(await a11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to your account' }).click();
    await expect(page.locator('#main').getByText(next)).toBeVisible({ timeout: SLOW });
    // The link works once.
    await page.goto(link!);
    await page.getByRole('button', { name: 'Confirm new e-mail' }).click();
    await expect(page.getByText('This link has expired or was already used')).toBeVisible({
      timeout: SLOW,
    });

    // Username: the rule is said at the field; a valid name saves; the next change is dated.
    await page.goto('/account');
    const username = page.getByRole('region', { name: 'Username' });
    await username.getByLabel('New username').fill('no');
    await username.getByRole('button', { name: 'Change username' }).click();
    await expect(username.getByText('Username must be between 4 and 15 characters')).toBeVisible();
    const renamed = `ren${stamp}`;
    await username.getByLabel('New username').fill(renamed);
    await username.getByRole('button', { name: 'Change username' }).click();
    await expect(page.locator('#main').getByText(renamed)).toBeVisible({ timeout: SLOW });
    await expect(username).toContainText('Your next change is possible on', { timeout: SLOW });
    await noSidewaysScroll(page);
    expect(await a11yViolations(page)).toEqual([]);
  } finally {
    await phone.close();
    await laptop.close();
  }
});

test('new recovery codes with a current code; the e-mail change asks for one; log out everywhere else', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now() % 100_000_000;
  const email = `codes-${stamp}@example.com`;
  const mine = await browser.newContext();
  const theirs = await browser.newContext();
  try {
    const page = await mine.newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await signedIn(page);
    await page.getByPlaceholder('Enter your username').fill(`cod${stamp}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0, { timeout: SLOW });

    const { recoveryCodes, nextCode } = await turnOnTwoFactor(page);
    const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
    await twoFactor.getByRole('button', { name: 'Get new recovery codes' }).click();
    const step = twoFactor.getByRole('group', { name: 'Replace your recovery codes?' });
    await expect(step).toBeFocused();
    await step.getByLabel('Current code').fill('000000');
    await step.getByRole('button', { name: 'Get new codes' }).click();
    await expect(step.getByText('That code is not valid')).toBeVisible({ timeout: SLOW });
    await step.getByLabel('Current code').fill(await nextCode());
    await step.getByRole('button', { name: 'Get new codes' }).click();
    const codes = twoFactor.getByTestId('recovery-codes').getByRole('listitem');
    await expect(codes).toHaveCount(10, { timeout: SLOW });
    const fresh = await codes.allTextContents();
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    await twoFactor.getByRole('button', { name: 'Done' }).click();
    await expect(twoFactor).toContainText('10 recovery codes left', { timeout: SLOW });
    await expect
      .poll(() => mailbox.mailsTo(email).map((m) => m.subject), { timeout: SLOW })
      .toContain('Your Tradeshelf recovery codes were replaced');

    // With two-factor on, the e-mail change asks for a code too.
    const section = page.getByRole('region', { name: 'E-mail' });
    await expect(section.getByLabel('Two-factor code')).toBeVisible();
    await section.getByLabel('Email').fill(`codes-new-${stamp}@example.com`);
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(section.getByLabel('Two-factor code')).toHaveAttribute('aria-invalid', 'true', {
      timeout: SLOW,
    });
    expect(await a11yViolations(page)).toEqual([]);

    // A second browser signs in (with a recovery code), then is logged out from the first.
    const other = await theirs.newPage();
    await other.goto('/login');
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.getByLabel('Code').fill(fresh[0]!);
    await other.getByRole('button', { name: 'Verify' }).click();
    await signedIn(other);

    await page.reload();
    const devices = page.getByRole('region', { name: 'Devices' });
    await expect(devices.getByTestId('device-row')).toHaveCount(2, { timeout: SLOW });
    await devices.getByRole('button', { name: 'Log out everywhere else' }).click();
    await devices
      .getByRole('group', { name: 'Log out every other device?' })
      .getByRole('button', { name: 'Log out everywhere else' })
      .click();
    await expect(devices.getByTestId('device-row')).toHaveCount(1, { timeout: SLOW });
    await other.goto('/account');
    await expect(other).toHaveURL(/\/login/, { timeout: SLOW });
  } finally {
    await mine.close();
    await theirs.close();
  }
});
