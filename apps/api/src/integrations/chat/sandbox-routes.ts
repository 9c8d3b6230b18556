import type { FastifyInstance } from 'fastify';
import { SANDBOX_API_PREFIX, sandboxDiscordApi, sandboxDiscordControls } from './sandbox-api.ts';
import { sandboxDiscordPages } from './sandbox-pages.ts';

/**
 * The Discord sandbox under `/sandbox/discord` (ADR 030): the REST subset the adapter calls, the
 * pages a person clicks, and (local, loopback only) the controls tests and benchmarks use.
 */
export async function sandboxDiscordModule(app: FastifyInstance): Promise<void> {
  await app.register(sandboxDiscordApi, { prefix: SANDBOX_API_PREFIX });
  await app.register(sandboxDiscordPages);
  await app.register(sandboxDiscordControls);
}
