// The new-version e-mail (ADR 053): "Version X of <title> is out", to owners whose purchase covers
// the version and who did not unsubscribe from the product; each mail carries its own one-click
// unsubscribe link. Queued when a version is published; a repeated job sends nothing again.
import { deliverablePlatformLabels, VERSION_MAILS_UNSUBSCRIBE_PATH } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { liveHolders } from '../access/index.ts';
import { productBasics } from '../catalog/index.ts';
import { purchaseTerms } from '../orders/index.ts';
import { contactsOf } from '../users/index.ts';
import { coverOf } from './grant.ts';
import * as repo from './repository.ts';
import { signUnsubscribe } from './tokens.ts';

export async function sendVersionMails(deps: AppDeps, versionId: string): Promise<number> {
  const origin = publicOrigin(deps.config);
  const ids = await deps.database.db.transaction(async (tx) => {
    const found = await tx.execute<{ id: string }>(sql`select id from deliverable_versions
      where id = ${versionId} and published_at is not null and mailed_at is null for update`);
    if (!found.rows[0]) return [];
    const version = (await repo.versionById(tx, versionId))!;
    await tx.execute(
      sql`update deliverable_versions set mailed_at = now() where id = ${versionId}`,
    );
    const product = await productBasics(tx, version.productId);
    if (!product) return [];
    const settings = await repo.settingsOf(tx, version.productId);
    const holders = await liveHolders(tx, version.productId);
    const terms = await purchaseTerms(
      tx,
      holders.flatMap((h) => h.purchaseIds),
    );
    const outs = new Set(
      (
        await tx.execute<{ user_id: string }>(sql`select user_id from version_mail_opt_outs
          where product_id = ${version.productId}`)
      ).rows.map((r) => r.user_id),
    );
    const released = version.publishedAt!;
    const covered = holders
      .filter((h) => !outs.has(h.userId))
      .filter((h) =>
        h.purchaseIds.some((p) => {
          const until = coverOf(terms.get(p), settings.updatePolicy);
          return until === null || until >= released;
        }),
      )
      .map((h) => h.userId);
    const contacts = await contactsOf(tx, covered);
    const mailIds: string[] = [];
    for (const userId of covered) {
      const email = contacts.get(userId)?.email;
      if (!email) continue;
      const token = signUnsubscribe(deps.config.STORAGE_SECRET, userId, product.id);
      const unsubscribe = `${origin}${VERSION_MAILS_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
      const text = [
        `Version ${version.version} of ${product.title} for ${deliverablePlatformLabels[version.platform]} is out.`,
        '',
        version.notes ? `What is new:\n${version.notes}\n` : '',
        `Download it from your library: ${origin}/library`,
        '',
        `No more e-mails about new versions of ${product.title}: ${unsubscribe}`,
      ]
        .filter((line, i, all) => line !== '' || all[i - 1] !== '')
        .join('\n');
      mailIds.push(
        await deps.mailer.enqueue(tx, {
          to: email,
          subject: `Version ${version.version} of ${product.title} is out`,
          text,
        }),
      );
    }
    return mailIds;
  });
  await deps.mailer.dispatch(ids);
  return ids.length;
}
