import type { DiscordChatOptions } from '../src/integrations/chat/discord.ts';
import { DiscordChat } from '../src/integrations/chat/discord.ts';
import type { ChatProvider } from '../src/integrations/chat/port.ts';
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
