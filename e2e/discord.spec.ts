import { expect, test, type Locator, type Page } from './test.ts';
import { buyOnSandbox, productPath } from './shop.ts';
import { register } from './accounts.ts';
import { a11yViolations } from './axe.ts';

// Issue 16, the buyer's side: a paid Discord community through the Discord sandbox the app serves
// (`/sandbox/discord`), from purchase to role and back (refund).

const COMMUNITY = 'Pip Hunters Lounge';

/** The buyer's communities, read with their own session (what the library reads). */
async function communities(page: Page) {
  return page.evaluate(async () => {
    const { accessToken } = JSON.parse(localStorage.getItem('tokens')!) as { accessToken: string };
    const res = await fetch('/api/v1/communities/user', {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    return (
      (await res.json()) as {
        communities: Array<{ product: { title: string }; server: { id: string } | null }>;
      }
    ).communities;
  });
}

/** A member's row on a sandbox server page (a plain HTML page: read again until it says so). */
async function expectMember(
  page: Page,
  url: string,
  name: string,
  check: (row: Locator) => Promise<void>,
) {
  await expect(async () => {
    await page.goto(url);
    await check(page.getByRole('row').filter({ hasText: name }));
  }).toPass({ timeout: 20_000 });
}

test('buy a community, connect Discord in the sandbox, get the role; a refund takes it away', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const email = await register(page, 'discord', 'discord-roles-77');
  // A new account names itself first (docs/product.md#username-prompt).
  const name = `pip${Date.now() % 100_000_000}`;
  await page.getByPlaceholder('Enter your username').fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0);

  // Nothing owned yet: the library says so and points at the marketplace.
  await page.getByRole('banner').getByRole('link', { name: 'Library' }).click();
  await expect(page).toHaveURL('/library');
  await expect(page.getByText('Nothing here yet')).toBeVisible();
  await expect(page.getByTestId('discord-connect')).toBeVisible();
  expect(await a11yViolations(page)).toEqual([]);

  // Buy the community with the sandbox's hosted checkout.
  await page.goto(await productPath(request, COMMUNITY));
  await buyOnSandbox(page, /^Subscribe · /);

  // The return page shows the Discord access as it arrives, and the way to it.
  const access = page.getByTestId('discord-access-health');
  await expect(access).toHaveAttribute('data-health', 'needs_link', { timeout: 20_000 });
  await expect(access).toContainText('Connect Discord to get access.');
  await page.getByTestId('discord-access-link').click();
  await expect(page).toHaveURL('/library');

  const card = page.getByTestId('community-card').filter({ hasText: COMMUNITY });
  await expect(card).toHaveAttribute('data-health', 'needs_link');
  await expect(card.getByTestId('community-health')).toContainText(
    'Connect Discord to get access.',
  );
  await expect(page.getByText('Nothing here yet')).toHaveCount(0);
  expect(await a11yViolations(page)).toEqual([]);

  // Connect: the sandbox's authorise page (a Discord look-alike), any username, Authorize.
  // The one Connect Discord button of the library (issue 27): the account panel's.
  await page.getByTestId('discord-connect').click();
  await expect(page).toHaveURL(/\/sandbox\/discord\/oauth2\/authorize\?/);
  const discordName = `pip_${Date.now() % 1_000_000}`;
  await page.getByLabel('Signed in as').fill(discordName);
  await expect(page.getByRole('checkbox', { name: 'Join servers for you' })).toBeChecked();
  await page.getByRole('button', { name: 'Authorize' }).click();

  // Back on the callback: connected, then the library opens by itself.
  await expect(page).toHaveURL(/\/discord-auth-callback\?code=/);
  await expect(
    page.getByRole('heading', { name: `Discord connected as ${discordName}` }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL('/library', { timeout: 15_000 });

  // With guilds.join the platform adds the buyer to the server and gives the role, no reload.
  await expect(card).toHaveAttribute('data-health', 'active', { timeout: 20_000 });
  await expect(card.getByTestId('community-health')).toContainText('You have access.');
  await expect(card).toContainText(`Role: ${COMMUNITY}`);
  const account = page.getByTestId('discord-account');
  await expect(account.getByTestId('discord-username')).toHaveText(discordName);
  await expect(account.getByTestId('discord-unlink')).toBeVisible();
  await expect(card.getByTestId('community-reconnect')).toHaveText('Reconnect');
  // The history opens from the keyboard.
  const history = card.locator('summary');
  await history.focus();
  await page.keyboard.press('Enter');
  await expect(card.locator('details ol li').first()).toBeVisible();
  await expect(card.locator('details ol')).toContainText('Granted');
  expect(await a11yViolations(page)).toEqual([]);

  // The sandbox server shows the buyer's member with the role.
  const server = (await communities(page)).find((c) => c.product.title === COMMUNITY)!.server!;
  const serverPage = `/sandbox/discord/servers/${server.id}`;
  const roleOf = (row: Locator) =>
    row.getByRole('button', { name: `Remove ${COMMUNITY} from ${discordName}` });
  await expectMember(page, serverPage, discordName, async (row) => {
    await expect(row).toHaveCount(1, { timeout: 1000 });
    await expect(roleOf(row)).toHaveCount(1, { timeout: 1000 });
  });

  // A moderator removes the role by hand on the server page: the sandbox's gateway tells the app's
  // member watcher (GUILD_MEMBER_UPDATE, as Discord's would), and the app gives the role back.
  const roleGrants = async () => {
    const q = new URLSearchParams({
      route: 'PUT /guilds/:g/members/:u/roles/:r',
      guildId: server.id,
    });
    const res = await request.get(`/sandbox/discord/_requests?${q}`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { requests: Array<{ status: number }> }).requests.filter(
      (r) => r.status === 204,
    ).length;
  };
  const grantsBefore = await roleGrants();
  await page.goto(serverPage);
  await roleOf(page.getByRole('row').filter({ hasText: discordName })).click();
  await expect(page).toHaveURL(serverPage);
  await expect(async () => expect(await roleGrants()).toBe(grantsBefore + 1)).toPass({
    timeout: 20_000,
  });
  await expectMember(page, serverPage, discordName, async (row) => {
    await expect(roleOf(row)).toHaveCount(1, { timeout: 1000 });
  });

  // Refund the purchase in the payments sandbox: the library says it ended and why.
  await page.goto('/sandbox/payments');
  await page
    .getByRole('row')
    .filter({ hasText: email })
    .filter({ hasText: COMMUNITY })
    .first()
    .getByRole('button', { name: 'Refund', exact: true })
    .click();
  await page.goto('/library');
  await expect(card).toHaveAttribute('data-health', 'ended', { timeout: 20_000 });
  await expect(card.getByTestId('community-health')).toContainText(
    'Ended: the purchase was refunded.',
  );
  await expect(card.getByRole('button')).toHaveCount(0);

  // …and the role is gone from the server (the member stays, without it).
  await expectMember(page, serverPage, discordName, async (row) => {
    await expect(row).toHaveCount(1, { timeout: 1000 });
    await expect(roleOf(row)).toHaveCount(0, { timeout: 1000 });
    await expect(row).toContainText('no roles', { timeout: 1000 });
  });
});

test('the username prompt offers Discord instead; Cancel on Discord’s page links nothing', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await register(page, 'discord-name', 'discord-roles-77');
  const prompt = page.getByRole('dialog', { name: 'Action Required! Update Your Username' });
  await expect(prompt).toBeVisible();

  // Cancel on the authorise page: back on the callback, told so, nothing sent to the API.
  await prompt.getByRole('button', { name: 'Connect Discord instead' }).click();
  await expect(page).toHaveURL(/\/sandbox\/discord\/oauth2\/authorize\?/);
  const oauthCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/discord/oauth-response')) oauthCalls.push(r.url());
  });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/discord-auth-callback\?error=access_denied/);
  await expect(page.getByRole('heading', { name: 'Discord was not connected' })).toBeAttached();
  await expect(page.getByText(/You cancelled on Discord’s page/)).toBeAttached();
  expect(oauthCalls).toEqual([]);

  // Try again from the prompt (still up: the account has no name) links and names the account.
  const discordName = `named_${Date.now() % 1_000_000}`;
  await prompt.getByRole('button', { name: 'Connect Discord instead' }).click();
  await expect(page).toHaveURL(/\/sandbox\/discord\/oauth2\/authorize\?/);
  await page.getByLabel('Signed in as').fill(discordName);
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page).toHaveURL(/\/discord-auth-callback\?code=/);
  const callback = page.url();
  await expect(
    page.getByRole('heading', { name: `Discord connected as ${discordName}` }),
  ).toBeVisible({ timeout: 15_000 });
  // The server filled the empty username from Discord: the prompt goes.
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('header-account')).toContainText(discordName);
  expect(oauthCalls).toHaveLength(1);
  await expect(page).toHaveURL('/library', { timeout: 15_000 });
  await expect(page.getByTestId('discord-username')).toHaveText(discordName);

  // Opened again, the same return is a used link: the API's words, with Try again.
  await page.goto(callback);
  await expect(page.getByRole('alert')).toHaveText(
    'This sign-in link was already used. Start again from your library.',
  );
  await expect(page.getByTestId('discord-try-again')).toBeVisible();
  expect(await a11yViolations(page)).toEqual([]);
});
