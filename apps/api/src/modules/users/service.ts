import { randomInt } from 'node:crypto';
import {
  accountMessages,
  USERNAME_CHANGE_DAYS,
  USERNAME_HOLD_DAYS,
  USERNAME_MAX,
  USERNAME_MIN,
  usersMessages,
  validateUsername,
  type User,
} from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { days } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { deleteImage, type ImageShape } from '../../platform/images.ts';
import { readImage, storeUpload } from '../../platform/image-upload.ts';
import type { FileReader } from '../../platform/multipart.ts';
import { presentUser, rolesOf } from './presenter.ts';
import * as repo from './repository.ts';

/** Shown at 32-64 CSS pixels; 256 covers 4x screens. */
const AVATAR_SHAPE: ImageShape = { fit: 'square', size: 256 };

const gone = () => new AppError('invalid_token', 'Your session has expired. Sign in again.');

export async function getProfile(deps: AppDeps, userId: string): Promise<User> {
  const row = await repo.findUserById(deps.database.db, userId);
  if (!row) throw gone();
  return presentUser(row, deps.storage);
}

/**
 * Sets or changes the username (docs/product.md#username). Choosing the first one is free; a
 * change is allowed once per 30 days and holds the old name for its owner for 30 days (ADR 058).
 */
export async function updateUsername(
  deps: AppDeps,
  userId: string,
  username: string,
): Promise<User> {
  const taken = () =>
    new AppError('username_taken', usersMessages.usernameTaken, {
      username: usersMessages.usernameTaken,
    });
  let row: repo.UserRow;
  try {
    row = await deps.database.db.transaction(async (tx) => {
      const current = await repo.lockUser(tx, userId);
      if (!current) throw gone();
      if (current.username === username) return current;
      const next = nextUsernameChange(current);
      if (next) {
        const date = next.toISOString().slice(0, 10);
        throw new AppError('business_rule', accountMessages.usernameTooSoon(date), {
          username: accountMessages.usernameTooSoon(date),
        });
      }
      await repo.lockName(tx, username);
      if (await repo.nameUnavailable(tx, userId, username)) throw taken();
      return repo.writeUsername(tx, current, username, USERNAME_HOLD_DAYS);
    });
  } catch (err) {
    // A name written by a path that took no lock (seed, support) still meets the unique index.
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return presentUser(row, deps.storage);
}

/** When a chosen username may next change; null when it may now (or none is chosen yet). */
export function nextUsernameChange(row: repo.UserRow, now = Date.now()): Date | null {
  if (!row.username || !row.usernameChangedAt) return null;
  const next = row.usernameChangedAt.getTime() + days(USERNAME_CHANGE_DAYS);
  return next > now ? new Date(next) : null;
}

/** The account settings' username part: when the next change may come. */
export async function usernameChangeableFrom(db: Tx, userId: string): Promise<Date | null> {
  const row = await repo.findUserById(db, userId);
  return row ? nextUsernameChange(row) : null;
}

/** A name from another platform (Discord) reshaped to the §5 rule: letters, digits, single underscores. */
export function usernameFrom(name: string): string | null {
  let base = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, USERNAME_MAX);
  if (!base) return null;
  while (base.length < USERNAME_MIN) base += '0';
  return validateUsername(base) === null ? base : null;
}

/**
 * Gives an account without a username one taken from its Discord name (the username prompt's
 * "Connect Discord instead"). Never replaces a chosen name; a name in use gets a short number.
 */
export async function fillUsernameFrom(deps: AppDeps, userId: string, name: string): Promise<void> {
  const base = usernameFrom(name);
  if (!base) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    const suffix = attempt === 0 ? '' : String(randomInt(10, 10_000));
    const candidate = base.slice(0, USERNAME_MAX - suffix.length).replace(/_$/, '') + suffix;
    if (validateUsername(candidate) !== null) continue;
    const outcome = await repo.fillUsername(deps.database.db, userId, candidate);
    if (outcome !== 'taken') return;
  }
}

/** The account registered with an e-mail, for support's eyes (never told to the sender). */
export async function accountByEmail(
  deps: AppDeps,
  email: string,
): Promise<{ id: string; emailVerified: boolean } | null> {
  const row = await repo.findUserByEmail(deps.database.db, email);
  return row ? { id: row.id, emailVerified: row.emailVerifiedAt !== null } : null;
}

/** Where a user is reached by mail (e.g. a vendor named in a contact message). */
/** The same, read on the caller's connection (inside its transaction). */
export async function emailIn(db: Tx, userId: string): Promise<string | null> {
  return (await repo.findUserById(db, userId))?.email ?? null;
}

/**
 * Among `ids`, the users whose e-mail or username contains `q` (case-insensitive): a vendor's search
 * of their own buyers, so it never reveals anyone else.
 */
export async function idsMatching(db: Tx, ids: string[], q: string): Promise<string[]> {
  if (!ids.length || !q) return [];
  return repo.findUserIdsMatching(db, ids, q);
}

/** E-mail and username of each of `ids` (one read): what a vendor sees of their buyers. */
export async function contactsOf(
  db: Tx,
  ids: string[],
): Promise<Map<string, { email: string; username: string | null }>> {
  if (!ids.length) return new Map();
  const found = await repo.findUsersByIds(db, ids);
  return new Map(found.map((u) => [u.id, { email: u.email, username: u.username }]));
}

export async function emailOf(deps: AppDeps, userId: string): Promise<string | null> {
  return (await repo.findUserById(deps.database.db, userId))?.email ?? null;
}

/** `sid`: the caller's sign-in, so ending it ends the vendor token too. */
export async function becomeVendor(deps: AppDeps, userId: string, sid: string) {
  const row = await repo.addRole(deps.database.db, userId, 'vendor');
  if (!row) throw gone();
  const token = await deps.tokens.sign(
    { sub: row.id, email: row.email, roles: rolesOf(row), sid },
    'tradeshelf:vendor',
  );
  return {
    token,
    accessTokenValidity: deps.tokens.accessTtlSeconds,
    user: { email: row.email, token, roles: rolesOf(row) },
  };
}

export async function uploadAvatar(
  deps: AppDeps,
  userId: string,
  /** Reads the upload's body: called only once the hourly limit allows it. */
  readFile: FileReader,
): Promise<{ url: string; user: User }> {
  const bytes = await readImage(deps, userId, 'avatar', readFile);
  const key = await storeUpload(deps, bytes, `public/avatars/${userId}`, AVATAR_SHAPE);
  const result = await repo.setAvatarKey(deps.database.db, userId, key);
  if (!result) {
    await deleteImage(deps.storage, key);
    throw gone();
  }
  // The old image is no longer referenced; losing this delete only leaves orphan files. The same
  // picture uploaded again has the same key: its files are the new avatar's.
  if (result.previous && result.previous !== key) await deleteImage(deps.storage, result.previous);
  const user = presentUser(result.user, deps.storage);
  return { url: user.avatarUrl!, user };
}
