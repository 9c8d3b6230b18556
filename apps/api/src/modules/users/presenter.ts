import type { Role, User } from '@tradeshelf/contract';
import type { Storage } from '../../integrations/storage/port.ts';
import { imageFileUrl, presentImage } from '../../platform/images.ts';
import type { UserRow } from './repository.ts';

const KNOWN_ROLES: readonly Role[] = ['buyer', 'vendor', 'affiliate'];

export function rolesOf(row: UserRow): Role[] {
  return row.roles.filter((r): r is Role => (KNOWN_ROLES as readonly string[]).includes(r));
}

/** The one shape a user takes in any response. */
export function presentUser(row: UserRow, storage: Storage): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username ?? '',
    emailVerified: row.emailVerifiedAt !== null,
    roles: rolesOf(row),
    avatarUrl: imageFileUrl(storage, row.avatarKey),
    avatar: presentImage(storage, row.avatarKey),
    createdAt: row.createdAt.toISOString(),
  };
}
