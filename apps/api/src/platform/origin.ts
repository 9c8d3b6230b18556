import type { FastifyRequest } from 'fastify';

/** The public origin for absolute URLs: PUBLIC_URL when configured, else the request's own. */
export function originOf(req: FastifyRequest): string {
  const configured = req.server.deps.config.PUBLIC_URL;
  if (configured) return configured.replace(/\/$/, '');
  return `${req.protocol}://${req.host}`;
}
