import { AVATAR_MAX_BYTES, usersMessages, type User } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { presentUser, rolesOf } from './presenter.ts';
import * as repo from './repository.ts';

const gone = () => new AppError('invalid_token', 'Your session has expired. Sign in again.');

export async function getProfile(deps: AppDeps, userId: string): Promise<User> {
  const row = await repo.findUserById(deps.database.db, userId);
  if (!row) throw gone();
  return presentUser(row, deps.storage);
}

export async function updateUsername(
  deps: AppDeps,
  userId: string,
  username: string,
): Promise<User> {
  const row = await repo.setUsername(deps.database.db, userId, username);
  if (row === null) {
    const exists = await repo.findUserById(deps.database.db, userId);
    if (!exists) throw gone();
    throw new AppError('username_taken', usersMessages.usernameTaken, {
      username: usersMessages.usernameTaken,
    });
  }
  return presentUser(row, deps.storage);
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

type ImageType = { mime: string; ext: string };

/** Decides the type from the bytes themselves; the file name and declared type are not trusted. */
export function sniffImage(bytes: Buffer): ImageType | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return { mime: 'image/png', ext: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { mime: 'image/jpeg', ext: 'jpg' };
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return { mime: 'image/webp', ext: 'webp' };
  return null;
}

export async function uploadAvatar(
  deps: AppDeps,
  userId: string,
  /** Reads the upload's body: called only once the hourly limit allows it. */
  readFile: () => Promise<{ bytes: Buffer; truncated: boolean } | null>,
): Promise<{ url: string; user: User }> {
  await deps.limiter.consume([{ rule: rules.upload, key: userId }]);
  const file = await readFile();
  if (!file || file.bytes.length === 0)
    throw new AppError('validation_failed', usersMessages.imageMissing, {
      file: usersMessages.imageMissing,
    });
  if (file.truncated || file.bytes.length > AVATAR_MAX_BYTES)
    throw new AppError('payload_too_large', usersMessages.imageTooLarge, {
      file: usersMessages.imageTooLarge,
    });
  const type = sniffImage(file.bytes);
  if (!type)
    throw new AppError('unsupported_media_type', usersMessages.imageType, {
      file: usersMessages.imageType,
    });

  const key = `public/avatars/${userId}/${newId('img')}.${type.ext}`;
  await deps.storage.put(key, file.bytes, type.mime);
  const result = await repo.setAvatarKey(deps.database.db, userId, key);
  if (!result) {
    await deps.storage.delete(key);
    throw gone();
  }
  // The old image is no longer referenced; losing this delete only leaves an orphan file.
  if (result.previous) await deps.storage.delete(result.previous).catch(() => undefined);
  const user = presentUser(result.user, deps.storage);
  return { url: user.avatarUrl!, user };
}
