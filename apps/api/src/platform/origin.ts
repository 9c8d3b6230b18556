import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The public origin for absolute URLs (e-mail links, redirect URIs, sitemaps, canonical URLs):
 * PUBLIC_URL (required in production), else `http://localhost:PORT`, as `npm start` prints. Never
 * the request's Host or X-Forwarded-Host: anyone can write those, and these URLs are sent to
 * others or cached (ADR 049).
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

/** `publicOrigin` for a route handler; the request's own headers play no part. */
export function originOf(req: FastifyRequest): string {
  return publicOrigin(req.server.deps.config);
}
