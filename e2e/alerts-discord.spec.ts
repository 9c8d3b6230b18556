import { expect, test } from './test.ts';
import { a11yViolations } from './axe.ts';

// Issue 31's Discord channel (ADR 059): the demo vendor's alert product is bound to its own role in
// Alpha Edge's sandbox Discord server. On the Alerts screen the vendor creates the feed's channel
// (only that role and the bot can read it) and sends an alert; the sandbox's page of the channel
// shows the message the bot posted, and which role reads it.

const SLOW = 30_000;
const FEED = 'Momentum Breakout Alerts';
const RUN = Date.now().toString(36).slice(-6);

test("an alert sent from the workspace is posted to the feed's channel in the vendor's Discord server", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/login?next=/vendor/delivery/alerts');
  await page.getByLabel('Email').fill('vendor@demo.tradeshelf.test');
  await page.getByLabel('Password').fill('tradeshelf-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  const panel = page.getByRole('region', { name: FEED });
  await expect(panel).toBeVisible({ timeout: SLOW });

  // The demo's channel is set; the vendor makes a new one, as a vendor setting it up would.
  const discord = panel.getByRole('region', { name: 'Discord channel' });
  const stop = discord.getByRole('button', { name: 'Stop posting' });
  await expect(stop).toBeVisible({ timeout: SLOW });
  await stop.click();
  await discord.getByRole('button', { name: 'Create #momentum-breakout-alerts' }).click();
  const channel = discord.getByTestId('alert-discord-channel');
  await expect(channel).toContainText('Readable by: Momentum Breakout Alerts', { timeout: SLOW });
  const url = await channel
    .getByRole('link', { name: '#momentum-breakout-alerts' })
    .getAttribute('href');
  expect(url).toMatch(/\/sandbox\/discord\/channels\/\d+\/\d+$/);
  expect(await a11yViolations(page)).toEqual([]);

  await panel.getByLabel('Symbol').fill('AMD');
  await panel.getByLabel('Side').selectOption('buy');
  await panel.getByLabel('Price').fill('171.40');
  await panel.getByLabel('Text').fill(`Breakout ${RUN} to Discord`);
  await panel.getByRole('button', { name: 'Send alert' }).click();
  await expect(page.getByText(/^Alert sent to \d+ subscribers?\.$/)).toBeVisible({ timeout: SLOW });

  // The job posts it: the channel's page shows the bot's message and its card.
  const sandbox = await page.context().newPage();
  await expect
    .poll(
      async () => {
        await sandbox.goto(url!);
        return sandbox
          .getByTestId('channel-messages')
          .textContent({ timeout: 2_000 })
          .catch(() => '');
      },
      { timeout: SLOW },
    )
    .toContain(`Breakout ${RUN} to Discord`);
  const message = sandbox.locator('article', { hasText: `Breakout ${RUN} to Discord` });
  await expect(message.getByRole('heading', { name: 'BUY AMD @ 171.40' })).toBeVisible();
  await expect(sandbox.getByText('Roles: Momentum Breakout Alerts')).toBeVisible();

  // The vendor's fan-out counts the Discord post as delivered.
  await page.reload();
  const row = page
    .getByTestId('vendor-alerts')
    .getByRole('row', { name: new RegExp(`Breakout ${RUN} to Discord`) });
  await expect(row).toContainText('discord: 1 delivered', { timeout: SLOW });
});
