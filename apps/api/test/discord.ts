import type { DiscordChatOptions } from '../src/integrations/chat/discord.ts';
import { DiscordChat } from '../src/integrations/chat/discord.ts';
import type { ChatProvider } from '../src/integrations/chat/port.ts';
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';
import { listen } from './http.ts';

/** The real Discord adapter pointed at the app's own Discord sandbox, served at `base`. */
export function sandboxAdapter(
  t: TestApp,
  base: string,
  over: Partial<DiscordChatOptions> = {},
): DiscordChat {
  return new DiscordChat({
    apiUrl: `${base}/sandbox/discord/api`,
    webUrl: `${base}/sandbox/discord`,
    inviteUrl: `${base}/sandbox/discord/invite`,
    clientId: t.config.DISCORD_CLIENT_ID,
    clientSecret: t.config.DISCORD_CLIENT_SECRET,
    botToken: t.config.DISCORD_BOT_TOKEN,
    ...over,
  });
}

/**
 * Serves the app on a loopback port and makes its chat port speak HTTP to the sandbox there, as
 * production speaks to Discord. Returns the server's origin.
 */
export async function discordOverHttp(t: TestApp): Promise<string> {
  const base = `http://127.0.0.1:${await listen(t.app)}`;
  (t.deps as { chat: ChatProvider }).chat = sandboxAdapter(t, base);
  return base;
}

/** The app's OAuth2 client credentials, as its Discord client sends them to the token endpoint. */
export const clientCredentials = (t: TestApp) => ({
  client_id: t.config.DISCORD_CLIENT_ID,
  client_secret: t.config.DISCORD_CLIENT_SECRET,
});

/** Posts a form to the Discord sandbox's token endpoint, as OAuth2 clients do. */
export const tokenForm = (t: TestApp, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/discord/api/v10/oauth2/token',
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** The Discord sandbox's local controls at `base`, over HTTP like everything else; a refusal fails the test. */
export async function sandboxControl(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/sandbox/discord${path}`, {
    method,
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.status === 204 ? null : ((await res.json()) as unknown);
}

/** Makes the sandbox answer the next `count` calls of `route` with `status` (429: after `retryAfter` s). */
export const sandboxFault = (
  base: string,
  route: string,
  status: number,
  count: number,
  retryAfter?: number,
) =>
  sandboxControl(base, 'POST', '/_faults', {
    route,
    status,
    count,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
