// Chart pictures on alerts (issue 31): uploaded to a feed through the picture pipeline, then named by
// the publish. The alert keeps the picture's absolute URL, so webhooks and e-mails can carry it.
import { alertsMessages as m } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { readImage, storeUpload } from '../../platform/image-upload.ts';
import { imageFileUrl, isImageRef, variantKeys } from '../../platform/images.ts';
import { publicOrigin } from '../../platform/origin.ts';
import type { FileReader } from '../../platform/multipart.ts';
import type { FeedRow } from './feeds.ts';

const prefixOf = (productId: string) => `public/alerts/${productId}`;

/** The picture's URL as buyers' automation can fetch it (local storage's are relative). */
const absolute = (deps: AppDeps, ref: string) =>
  new URL(imageFileUrl(deps.storage, ref)!, `${publicOrigin(deps.config)}/`).toString();

export async function addAlertImage(
  deps: AppDeps,
  userId: string,
  feed: FeedRow,
  read: FileReader,
): Promise<{ imageId: string; imageUrl: string }> {
  const bytes = await readImage(deps, userId, 'catalogue', read);
  const imageId = await storeUpload(deps, bytes, prefixOf(feed.productId), {
    fit: 'inside',
    max: 1200,
  });
  return { imageId, imageUrl: absolute(deps, imageId) };
}

/** The URL of a picture added to this feed, or a 400 naming `image` (another feed's, or none). */
export async function imageOfFeed(deps: AppDeps, feed: FeedRow, imageId: string): Promise<string> {
  const refused = new AppError('validation_failed', m.image, { image: m.image });
  if (!isImageRef(imageId) || !imageId.startsWith(`${prefixOf(feed.productId)}/`)) throw refused;
  // The JPEG is written last: present, the picture is whole.
  if (!(await deps.storage.exists(variantKeys(imageId).at(-1)!))) throw refused;
  return absolute(deps, imageId);
}
