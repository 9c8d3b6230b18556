import { AVATAR_MAX_BYTES, usersMessages } from '@tradeshelf/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError } from './errors.ts';
import { ImageRejected, storeImage, type ImageShape } from './images.ts';
import { fileUpload, type FileReader } from './multipart.ts';
import { rules } from './rate-limit.ts';
import { sniffImage } from './sniff.ts';
import { readWhole, type FileRules } from './uploads.ts';

/** A picture upload's body limit: the picture and the multipart envelope around it. */
export const IMAGE_BODY_LIMIT = AVATAR_MAX_BYTES + 64 * 1024;

/** The picture in multipart field `file` of a picture upload (avatars, product pictures, covers). */
export function imageUpload(req: FastifyRequest): FileReader {
  return fileUpload(req, {
    field: 'file',
    maxBytes: AVATAR_MAX_BYTES,
    tooLarge: usersMessages.imageTooLarge,
  });
}

/** Pictures: PNG, JPEG or WebP by their first bytes, up to 2 MB. */
const imageRules: FileRules<'png' | 'jpeg' | 'webp'> = {
  maxBytes: AVATAR_MAX_BYTES,
  tooLarge: usersMessages.imageTooLarge,
  missing: usersMessages.imageMissing,
  wrongType: usersMessages.imageType,
  sniff: (head) => sniffImage(head),
  keepsName: false,
};

/** What a picture is for: each has its own hourly budget per user. */
const purposeRule = {
  avatar: rules.avatarUpload,
  catalogue: rules.catalogueImageUpload,
  storefront: rules.storefrontImageUpload,
} as const;

export type ImagePurpose = keyof typeof purposeRule;

/**
 * The upload's picture (after its purpose's hourly limit), read whole: the pipeline decodes all of
 * it, and it is at most `AVATAR_MAX_BYTES`. Missing, oversized or not a picture: the 4xx.
 */
export async function readImage(
  deps: AppDeps,
  userId: string,
  purpose: ImagePurpose,
  read: FileReader,
): Promise<Buffer> {
  await deps.limiter.consume([{ rule: purposeRule[purpose], key: userId }]);
  return (await readWhole(read, imageRules)).bytes;
}

/**
 * A picture from `readImage` through the image pipeline: decoded whole, cleaned and stored as
 * variants. Every refusal is a 4xx with the field named, and nothing is stored.
 */
export async function storeUpload(
  deps: AppDeps,
  bytes: Buffer,
  prefix: string,
  shape: ImageShape,
): Promise<string> {
  try {
    return await storeImage(deps.storage, bytes, prefix, shape);
  } catch (err) {
    if (!(err instanceof ImageRejected)) throw err;
    if (err.reason === 'too_many_pixels')
      throw new AppError('payload_too_large', usersMessages.imagePixels, {
        file: usersMessages.imagePixels,
      });
    throw new AppError('validation_failed', usersMessages.imageCorrupt, {
      file: usersMessages.imageCorrupt,
    });
  }
}
