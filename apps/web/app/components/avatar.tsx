import type { User } from '@tradeshelf/contract';
import { Picture } from '../lib/images.tsx';
import { PictureOrLetters } from './ui.tsx';

/** Up to two letters from the username (or the e-mail before one is chosen). */
export function initialsOf(user: Pick<User, 'username' | 'email'>): string {
  const name = user.username || user.email.split('@')[0] || '?';
  const parts = name.split(/[_.\-\s]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
}

/** Sizes as classes: the page's CSP allows no inline style attributes. */
const BOX = {
  32: 'h-8 w-8 text-xs',
  80: 'h-20 w-20 text-2xl',
} as const;

/**
 * The user's picture in a circle of `size` CSS pixels, or their initials when there is none.
 * `alt` empty when a visible name sits beside it.
 */
export function UserAvatar({
  user,
  size,
  alt = '',
  priority = false,
}: {
  user: Pick<User, 'username' | 'email' | 'avatar' | 'avatarUrl'>;
  size: keyof typeof BOX;
  alt?: string;
  priority?: boolean;
}) {
  const box = BOX[size];
  if (user.avatar)
    return (
      <span className={`inline-block shrink-0 overflow-hidden rounded-full bg-ink-700 ${box}`}>
        <Picture
          image={user.avatar}
          alt={alt}
          sizes={`${size}px`}
          priority={priority}
          className="h-full w-full object-cover"
        />
      </span>
    );
  return (
    <PictureOrLetters
      src={user.avatarUrl}
      letters={initialsOf(user)}
      size={size}
      box={`rounded-full ${box}`}
      tile="bg-brand-500/25 text-brand-100"
      alt={alt}
    />
  );
}
