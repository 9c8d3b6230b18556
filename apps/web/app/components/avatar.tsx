import type { ResponsiveImage, User } from '@tradeshelf/contract';
import { Picture } from '../lib/images.tsx';
import type { ComponentProps } from 'react';
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
  return (
    <ImageOrLetters
      image={user.avatar}
      src={user.avatarUrl}
      letters={initialsOf(user)}
      size={size}
      box={`rounded-full ${BOX[size]}`}
      tile="bg-brand-500/25 text-brand-100"
      alt={alt}
      priority={priority}
    />
  );
}

/**
 * `PictureOrLetters`, with a picture in its sizes and formats (`image`) before all: a user's, a
 * storefront's logo. Kept here, not in the shell's ui.tsx: no public page shows one.
 */
export function ImageOrLetters({
  image,
  priority = false,
  ...tile
}: ComponentProps<typeof PictureOrLetters> & {
  image: ResponsiveImage | null | undefined;
  priority?: boolean;
}) {
  if (!image) return <PictureOrLetters {...tile} />;
  return (
    <span className={`inline-block shrink-0 overflow-hidden bg-ink-700 ${tile.box}`}>
      <Picture
        image={image}
        alt={tile.alt ?? ''}
        sizes={`${tile.size}px`}
        priority={priority}
        className="h-full w-full object-cover"
      />
    </span>
  );
}
