import type { FastifyInstance } from 'fastify';
import { SANDBOX_API_PREFIX, sandboxDiscordApi, sandboxDiscordControls } from './sandbox-api.ts';
import { SandboxGateway } from './sandbox-gateway.ts';
import { sandboxDiscordPages } from './sandbox-pages.ts';

/**
 * The Discord sandbox under `/sandbox/discord` (ADR 030): the REST subset the adapter calls, the
 * gateway its member watcher connects to, the pages a person clicks, and (local, loopback only) the
 * controls tests and benchmarks use.
 */
export async function sandboxDiscordModule(app: FastifyInstance): Promise<void> {
  const gateway = new SandboxGateway(app.deps.discordSandbox!);
  const detach = gateway.attach(app.server);
  // Upgraded sockets would hold the server's close open: they go first, resumable by the clients.
  app.addHook('preClose', async () => {
    detach();
    gateway.close();
  });
  await app.register(sandboxDiscordApi, { prefix: SANDBOX_API_PREFIX, gateway });
  await app.register(sandboxDiscordPages);
  await app.register(sandboxDiscordControls, { gateway });
}
