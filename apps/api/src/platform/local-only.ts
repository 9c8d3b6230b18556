import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.ts';

/** 127.0.0.0/8, ::1, and IPv4 loopback as an IPv4-mapped IPv6 address, in any spelling. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) !== 6) return false;
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname; // the canonical spelling
  } catch {
    return false; // e.g. a zone id (fe80::1%eth0): link-local, not loopback
  }
  return host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/** Addresses a proxy says it forwarded for (X-Forwarded-For, and `for=` of Forwarded). */
export function forwardedFor(req: FastifyRequest): string[] {
  const out: string[] = [];
  const xff = req.headers['x-forwarded-for'];
  for (const v of Array.isArray(xff) ? xff : xff ? [xff] : []) {
    for (const part of v.split(',')) out.push(part.trim());
  }
  const fwd = req.headers.forwarded;
  if (fwd) {
    for (const m of fwd.matchAll(/for=("?)([^;,"]*)\1/gi)) {
      // `for="[::1]:4711"` and `for=127.0.0.1:80`: drop brackets and port.
      const v = m[2]!;
      out.push(v.startsWith('[') ? v.slice(1, v.indexOf(']')) : v.replace(/:\d+$/, ''));
    }
  }
  return out;
}

/**
 * Guards a page that must never leave the developer's machine: the mail outbox (`/dev/mail`, every
 * reset and activation code) and the payments sandbox dashboard (buyers' e-mails, refund buttons).
 *
 * Answers 404 in the contract's error shape, as if the route did not exist, unless `APP_ENV` is
 * `local` **and** the TCP peer (the socket's address, never `X-Forwarded-For`, whatever
 * `TRUST_PROXY` says) is loopback. Forwarding headers can only refuse: a proxy on this machine that
 * forwards someone else's request does not make it local. Never serves in `sandbox` or `production`.
 *
 * Use it per route, `app.get(path, { onRequest: localOnly(app.deps.config) }, handler)`, or for
 * every route of an encapsulated plugin, `app.addHook('onRequest', localOnly(app.deps.config))`.
 */
export function localOnly(config: Pick<Config, 'APP_ENV'>): onRequestHookHandler {
  return async function localOnlyGuard(req: FastifyRequest, reply: FastifyReply) {
    const local =
      config.APP_ENV === 'local' &&
      isLoopback(req.raw.socket.remoteAddress) &&
      forwardedFor(req).every(isLoopback);
    if (local) return;
    return reply
      .status(404)
      .send({ error: `No route for ${req.method} ${req.url.split('?')[0]}.`, code: 'not_found' });
  };
}
