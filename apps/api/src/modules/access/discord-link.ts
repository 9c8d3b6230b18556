// Use cases: link a Discord account (authorise URL, OAuth2 response), read it, unlink it.
import { discordMessages as m, type DiscordLink } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { ChatError } from '../../integrations/chat/port.ts';
import { randomToken } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { Sealer } from '../../platform/seal.ts';
import { fillUsernameFrom } from '../users/index.ts';
import { queueConverge } from './converge-queue.ts';

/** An authorise link is good for ten minutes, once. */
const STATE_TTL_MS = 10 * 60_000;
/** `identify` names the account; `guilds.join` lets the platform add the buyer to servers. */
export const LINK_SCOPES = ['identify', 'guilds.join'];

export const callbackUrl = (origin: string) => `${origin}/discord-auth-callback`;

const sealers = new WeakMap<AppDeps, Sealer>();
export function sealer(deps: AppDeps): Sealer {
  let s = sealers.get(deps);
  if (!s) sealers.set(deps, (s = new Sealer(deps.config.CODE_SECRET)));
  return s;
}

/** A signed, expiring, single-use `state` bound to the user; recorded so it cannot be replayed. */
export async function issueState(
  deps: AppDeps,
  userId: string,
  purpose: 'link' | 'install',
  vendorUrl: string | null,
): Promise<{ state: string; expiresAt: Date }> {
  const nonce = randomToken(24);
  const expiresAt = new Date(Date.now() + STATE_TTL_MS);
  await deps.database.db
    .execute(sql`insert into discord_oauth_states (nonce, user_id, purpose, vendor_url, expires_at)
    values (${nonce}, ${userId}, ${purpose}, ${vendorUrl}, ${expiresAt})`);
  return { state: sealer(deps).sign(`${purpose}.${nonce}`), expiresAt };
}

/** Checks and spends a state: 400 with the reason in words when forged, foreign, expired or used. */
export async function spendState(
  deps: AppDeps,
  userId: string,
  purpose: 'link' | 'install',
  state: string,
): Promise<{ vendorUrl: string | null }> {
  const words =
    purpose === 'install'
      ? { invalid: m.installStateInvalid, used: m.installStateUsed, expired: m.installStateExpired }
      : { invalid: m.stateInvalid, used: m.stateUsed, expired: m.stateExpired };
  const payload = sealer(deps).verify(state);
  const [kind, nonce] = payload?.split('.') ?? [];
  if (!nonce || kind !== purpose) throw new AppError('bad_request', words.invalid);
  const db = deps.database.db;
  // Spent by the one request whose update matches: a second one at the same moment finds it used.
  const spent = await db.execute<{ vendor_url: string | null }>(sql`update discord_oauth_states
      set used_at = now()
      where nonce = ${nonce} and purpose = ${purpose} and user_id = ${userId}
        and used_at is null and expires_at > now()
      returning vendor_url`);
  if (spent.rows[0]) return { vendorUrl: spent.rows[0].vendor_url };
  const found = await db.execute<{ user_id: string; used_at: Date | string | null }>(
    sql`select user_id, used_at from discord_oauth_states where nonce = ${nonce} and purpose = ${purpose}`,
  );
  const row = found.rows[0];
  if (!row || row.user_id !== userId) throw new AppError('bad_request', words.invalid);
  throw new AppError('bad_request', row.used_at ? words.used : words.expired);
}

export async function authorizeUrl(
  deps: AppDeps,
  userId: string,
  vendorUrl: string | null,
  origin: string,
): Promise<{ url: string; expiresAt: string }> {
  const { state, expiresAt } = await issueState(deps, userId, 'link', vendorUrl);
  return {
    url: deps.chat.authorizeUrl({ state, redirectUri: callbackUrl(origin), scopes: LINK_SCOPES }),
    expiresAt: expiresAt.toISOString(),
  };
}

interface LinkRow extends Record<string, unknown> {
  discord_user_id: string;
  username: string;
  global_name: string | null;
  avatar_url: string | null;
  scopes: string[];
  linked_at: Date | string;
}

const present = (r: LinkRow): DiscordLink => ({
  id: r.discord_user_id,
  username: r.username,
  globalName: r.global_name,
  avatarUrl: r.avatar_url,
  linkedAt: new Date(r.linked_at).toISOString(),
  canJoinServers: r.scopes.includes('guilds.join'),
});

export async function linkOf(deps: AppDeps, userId: string): Promise<DiscordLink | null> {
  const found = await deps.database.db
    .execute<LinkRow>(sql`select discord_user_id, username, global_name,
      avatar_url, scopes, linked_at from discord_links where user_id = ${userId}`);
  return found.rows[0] ? present(found.rows[0]) : null;
}

/** Discord's failures as the API's: a bad code is the buyer's to retry; an outage is a 503. */
function providerError(err: unknown): never {
  if (err instanceof ChatError) {
    if (err.kind === 'invalid_grant') throw new AppError('bad_request', m.codeInvalid);
    throw new AppError('service_unavailable', m.discordDown);
  }
  throw err;
}

/**
 * The OAuth2 response: spends the state, exchanges the code, links the account and starts granting.
 * Linking the same Discord account again (a relink) refreshes it; another user's is a 409.
 */
export async function completeLink(
  deps: AppDeps,
  userId: string,
  input: { code: string; state: string },
  origin: string,
): Promise<DiscordLink> {
  await spendState(deps, userId, 'link', input.state);
  const grant = await deps.chat.exchangeCode(input.code, callbackUrl(origin)).catch(providerError);
  const who = await deps.chat.currentUser(grant.accessToken).catch(providerError);
  const seal = sealer(deps);
  const linked = await deps.database.db
    .transaction(async (tx) => {
      const owner = await tx.execute<{ user_id: string }>(
        sql`select user_id from discord_links where discord_user_id = ${who.id} for update`,
      );
      if (owner.rows[0] && owner.rows[0].user_id !== userId)
        throw new AppError('conflict', m.linkedElsewhere);
      const before = await tx.execute<{ discord_user_id: string }>(
        sql`select discord_user_id from discord_links where user_id = ${userId} for update`,
      );
      const row =
        await tx.execute<LinkRow>(sql`insert into discord_links (user_id, discord_user_id, username,
        global_name, avatar_url, scopes, access_token, refresh_token, token_expires_at)
      values (${userId}, ${who.id}, ${who.username}, ${who.globalName}, ${who.avatarUrl},
        ${sql.param(grant.scopes)}::text[], ${seal.seal(grant.accessToken)},
        ${grant.refreshToken ? seal.seal(grant.refreshToken) : null}, ${grant.expiresAt})
      on conflict (user_id) do update set discord_user_id = excluded.discord_user_id,
        username = excluded.username, global_name = excluded.global_name,
        avatar_url = excluded.avatar_url, scopes = excluded.scopes,
        access_token = excluded.access_token, refresh_token = excluded.refresh_token,
        token_expires_at = excluded.token_expires_at,
        linked_at = case when discord_links.discord_user_id = excluded.discord_user_id
          then discord_links.linked_at else now() end
      returning discord_user_id, username, global_name, avatar_url, scopes, linked_at`);
      const former = before.rows[0]?.discord_user_id;
      return { link: present(row.rows[0]!), former: former && former !== who.id ? former : null };
    })
    // Two accounts linking one Discord account at once: the unique index lets one in.
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? new AppError('conflict', m.linkedElsewhere) : err;
    });
  await queueConverge(deps, userId, { formerDiscordUserId: linked.former, cause: 'linked' });
  await fillUsernameFrom(deps, userId, who.username);
  return linked.link;
}

/** Unlinks: roles are taken from that Discord account; entitlements stay for a later link. */
export async function unlink(deps: AppDeps, userId: string): Promise<void> {
  const removed = await deps.database.db.execute<{ discord_user_id: string }>(
    sql`delete from discord_links where user_id = ${userId} returning discord_user_id`,
  );
  const former = removed.rows[0]?.discord_user_id;
  if (!former) throw new AppError('not_found', m.notLinked);
  await queueConverge(deps, userId, { formerDiscordUserId: former, cause: 'unlinked' });
}

/** The user's Discord token, opened, when they granted `guilds.join` and it has not expired. */
export async function joinToken(deps: AppDeps, userId: string): Promise<string | null> {
  const found = await deps.database.db.execute<{
    access_token: string | null;
    token_expires_at: Date | string | null;
    scopes: string[];
  }>(
    sql`select access_token, token_expires_at, scopes from discord_links where user_id = ${userId}`,
  );
  const row = found.rows[0];
  if (!row?.access_token || !row.scopes.includes('guilds.join')) return null;
  if (row.token_expires_at && new Date(row.token_expires_at).getTime() < Date.now()) return null;
  return sealer(deps).open(row.access_token);
}
