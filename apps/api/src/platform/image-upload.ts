import { AVATAR_MAX_BYTES, usersMessages } from '@tradeshelf/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError } from './errors.ts';
import { ImageRejected, storeImage, type ImageShape } from './images.ts';
import { fileUpload, type FileReader } from './multipart.ts';
import { rules } from './rate-limit.ts';
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

/** Decides the type from the bytes themselves; the file name and declared type are not trusted. */
export function sniffImage(bytes: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Only PNG, JPEG or WebP by their bytes (SVG, TIFF and the other formats the decoder knows are refused). */
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
