import { expect, test, type Page } from './test.ts';
import { signUp } from './accounts.ts';
import { a11yViolations } from './axe.ts';
import { mailbox } from './mailbox.ts';
import { logInToSecondStep, turnOnTwoFactor } from './two-factor.ts';

// Issue 33's passkeys (ADR 054) in Chromium, with its virtual authenticator standing in for a
// fingerprint reader: add a passkey on the account page, log out, sign in with it alone.

const SLOW = 30_000;
const PASSWORD = 'passkey-walk-77';
const PORT = Number(process.env.E2E_PORT ?? 3100);
// Browsers offer passkeys on https and on http://localhost, not on http://127.0.0.1: this walk
// runs at localhost, the origin the server's PASSKEY_ORIGIN names (playwright.config.ts).
test.use({ baseURL: `http://localhost:${PORT}` });

/** Chromium's virtual authenticator: a platform one with a verified user, as a fingerprint gives. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('add a passkey, log out, sign in with it; once removed it signs in no more', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  const { email } = await signUp(page, 'pk', PASSWORD);
  await page.goto('/account');
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible({ timeout: SLOW });
  await passkeys.getByLabel('Passkey name').fill('This laptop');
  await passkeys.getByLabel('Current password').fill(PASSWORD);
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  const rows = passkeys.getByTestId('passkey-row');
  await expect(rows).toHaveCount(1, { timeout: SLOW });
  await expect(rows).toContainText('This laptop');
  await expect(rows).toContainText('Never');
  // The authenticator holds a discoverable credential: it can sign in without an e-mail.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await expect
    .poll(() => mailbox.mailsTo(email).map((m) => m.subject), { timeout: SLOW })
    .toContain('A passkey was added to your Tradeshelf account');
  expect(await a11yViolations(page)).toEqual([]);

  const logOut = page.getByRole('banner').getByRole('button', { name: 'Log out' });
  await logOut.click();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // The same session behaviour as a password login: a welcome, the session stored after the delay.
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible({ timeout: SLOW });
  await expect(page.getByText(`You are signed in as ${email}`)).toBeVisible();
  await expect(logOut).toBeVisible({ timeout: SLOW });

  await page.goto('/account');
  await expect(rows).toHaveCount(1, { timeout: SLOW });
  await expect(rows).not.toContainText('Never');

  // Renamed, then removed in the confirm step, which asks for the password again.
  await passkeys.getByRole('button', { name: 'Rename This laptop' }).click();
  await passkeys.getByLabel('New name').fill('Old laptop');
  await passkeys.getByRole('button', { name: 'Save' }).click();
  await expect(rows).toContainText('Old laptop', { timeout: SLOW });
  await passkeys.getByRole('button', { name: 'Remove Old laptop' }).click();
  const confirm = passkeys.getByRole('group', { name: 'Remove the passkey “Old laptop”?' });
  await confirm.getByLabel('Current password').fill(PASSWORD);
  await confirm.getByTestId('confirm-remove-passkey').click();
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible({ timeout: SLOW });

  // The authenticator still has it; the site no longer takes it.
  await logOut.click();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('That passkey could not sign you in')).toBeVisible({
    timeout: SLOW,
  });
  await expect(logOut).toHaveCount(0);
});

test('with two-factor on, a passkey stands in for the code', async ({ page }) => {
  test.setTimeout(120_000);
  await virtualAuthenticator(page);
  const { email } = await signUp(page, 'pk2fa', PASSWORD);
  const { nextCode } = await turnOnTwoFactor(page);
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByLabel('Passkey name').fill('Phone');
  await passkeys.getByLabel('Current password').fill(PASSWORD);
  // Two-factor on: adding one asks for a current code too.
  await passkeys.getByLabel('Two-factor code').fill(await nextCode());
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByTestId('passkey-row')).toHaveCount(1, { timeout: SLOW });

  const logOut = page.getByRole('banner').getByRole('button', { name: 'Log out' });
  await logInToSecondStep(page, email, PASSWORD, SLOW);
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible({ timeout: SLOW });
  await expect(logOut).toBeVisible({ timeout: SLOW });
});
