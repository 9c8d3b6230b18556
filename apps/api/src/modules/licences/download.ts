// Use case: a signed, expiring link to the app's current build, for a buyer whose licence is live.
import { licenceMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { statusSql } from './queries.ts';

/** Long enough to start a large download on a slow line; a new link is one click away. */
const LINK_SECONDS = 15 * 60;

interface Row extends Record<string, unknown> {
  status: 'active' | 'expired' | 'revoked';
  version: string | null;
  file_name: string | null;
  storage_key: string | null;
  size_bytes: number | null;
  sha256: string | null;
  published_at: Date | string | null;
}

export async function downloadLink(deps: AppDeps, userId: string, licenceId: string) {
  await deps.limiter.consume([{ rule: rules.licenceUser, key: userId }]);
  const row = (
    await deps.database.db.execute<Row>(sql`
      select ${statusSql} as status, b.version, b.file_name, b.storage_key, b.size_bytes, b.sha256,
        b.published_at
      from licences l
      left join lateral (select * from licence_builds b where b.product_id = l.product_id
        order by b.published_at desc, b.id desc limit 1) b on true
      where l.id = ${licenceId} and l.user_id = ${userId}`)
  ).rows[0];
  if (!row) throw new AppError('not_found', m.notFound);
  if (row.status !== 'active') throw new AppError('licence_inactive', m.downloadInactive);
  if (!row.storage_key) throw new AppError('not_found', m.noBuild);
  // Uploaded builds are stored under ids: the link downloads under the build's own file name.
  const link = await deps.storage.signedUrl(row.storage_key, LINK_SECONDS, {
    downloadName: row.file_name!,
  });
  return {
    url: link.url,
    expiresAt: link.expiresAt.toISOString(),
    build: {
      version: row.version!,
      fileName: row.file_name!,
      sizeBytes: row.size_bytes!,
      sha256: row.sha256!,
      publishedAt: new Date(row.published_at!).toISOString(),
    },
  };
}
