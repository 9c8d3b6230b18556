// Use case: a signed, expiring link to the app's current build (its newest current deliverable), for a
// buyer whose licence is live.
import { licenceMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { latestFiles } from '../deliverables/index.ts';
import { statusSql } from './queries.ts';

/** Long enough to start a large download on a slow line; a new link is one click away. */
const LINK_SECONDS = 15 * 60;

interface Row extends Record<string, unknown> {
  status: 'active' | 'expired' | 'revoked';
  product_id: string;
}

export async function downloadLink(deps: AppDeps, userId: string, licenceId: string) {
  await deps.limiter.consume([{ rule: rules.licenceUser, key: userId }]);
  const row = (
    await deps.database.db.execute<Row>(sql`
      select ${statusSql} as status, l.product_id from licences l
      where l.id = ${licenceId} and l.user_id = ${userId}`)
  ).rows[0];
  if (!row) throw new AppError('not_found', m.notFound);
  if (row.status !== 'active') throw new AppError('licence_inactive', m.downloadInactive);
  // The app's build is its newest current deliverable (ADR 053).
  const build = (await latestFiles(deps.database.db, [row.product_id])).get(row.product_id);
  if (!build) throw new AppError('not_found', m.noBuild);
  // Uploaded builds are stored under ids: the link downloads under the build's own file name.
  const link = await deps.storage.signedUrl(build.storageKey, LINK_SECONDS, {
    downloadName: build.fileName,
  });
  return {
    url: link.url,
    expiresAt: link.expiresAt.toISOString(),
    build: {
      version: build.version,
      fileName: build.fileName,
      sizeBytes: build.sizeBytes,
      sha256: build.sha256,
      publishedAt: build.publishedAt.toISOString(),
    },
  };
}
