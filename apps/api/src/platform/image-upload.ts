import { AVATAR_MAX_BYTES, usersMessages } from '@tradeshelf/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError } from './errors.ts';
import { ImageRejected, storeImage, type ImageShape } from './images.ts';
import { fileUpload, type FilePart } from './multipart.ts';

/** A picture upload's body limit: the picture and the multipart envelope around it. */
export const IMAGE_BODY_LIMIT = AVATAR_MAX_BYTES + 64 * 1024;

/** The picture in multipart field `file` of a picture upload (avatars, product pictures, covers). */
export function imageUpload(req: FastifyRequest): () => Promise<FilePart | null> {
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

/** The upload's bytes, or the 4xx for a missing or oversized file (after the rate limit). */
export async function readImageFile(
  readFile: () => Promise<{ bytes: Buffer; truncated: boolean } | null>,
): Promise<Buffer> {
  const file = await readFile();
  if (!file || file.bytes.length === 0)
    throw new AppError('validation_failed', usersMessages.imageMissing, {
      file: usersMessages.imageMissing,
    });
  if (file.truncated || file.bytes.length > AVATAR_MAX_BYTES)
    throw new AppError('payload_too_large', usersMessages.imageTooLarge, {
      file: usersMessages.imageTooLarge,
    });
  return file.bytes;
}

/**
 * An uploaded picture through the image pipeline: only PNG, JPEG or WebP by their bytes (SVG, TIFF
 * and the other formats the decoder knows are refused), decoded whole, cleaned and stored as
 * variants. Every refusal is a 4xx with the field named, and nothing is stored.
 */
export async function storeUpload(
  deps: AppDeps,
  bytes: Buffer,
  prefix: string,
  shape: ImageShape,
): Promise<string> {
  if (!sniffImage(bytes))
    throw new AppError('unsupported_media_type', usersMessages.imageType, {
      file: usersMessages.imageType,
    });
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
