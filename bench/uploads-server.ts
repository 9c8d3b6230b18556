/**
 * The app as its own process for `uploads.bench.ts` (its RSS is what the bench samples): starts on a
 * loopback port, makes `BENCH_UPLOAD_VENDORS` vendors with a course of one lesson, prints one JSON
 * line with the URL and what each vendor needs to upload, and runs until it is sent SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vendorCoursesRoutes as vr } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { newId } from '../apps/api/src/lib.ts';
import { startBenchApp } from './lib.ts';

const VENDORS = Number(process.env.BENCH_UPLOAD_VENDORS ?? 12);

// Its own data directory, removed on exit: a run stores gigabytes of video.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-bench-uploads-'));
const b = await startBenchApp(null, { env: { DATA_DIR: dataDir } });
const db = b.database.db;
const vendors: Array<{ token: string; productId: string; lessonIds: string[] }> = [];
for (let i = 0; i < VENDORS; i++) {
  const userId = newId('usr');
  const vendorId = newId('ven');
  const productId = newId('prd');
  const priceId = newId('price');
  await db.execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
    values (${userId}, ${`${userId}@bench.test`}, 'locked', array['buyer','vendor']::text[], now())`);
  await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
    values (${vendorId}, ${userId}, ${`bench-uploader-${i}`}, ${`Uploader ${i}`})`);
  await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary,
      description, is_active, default_price_id, sort_amount)
    values (${productId}, ${vendorId}, 'course', 'education', ${`bench-course-${i}`},
      ${`Bench course ${i}`}, 'A course for the upload bench.', '', false, ${priceId}, 4900)`);
  await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
    values (${priceId}, ${productId}, 4900, 'usd', 'one_time', 0)`);
  const token = await b.deps.tokens.sign({
    sub: userId,
    email: `${userId}@bench.test`,
    roles: ['buyer', 'vendor'],
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(b.url + path.replace('{productId}', productId), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { course: { modules: Array<{ id: string }> }; lessonId?: string };
  };
  const moduleId = (await post(vr.addCourseModule.path, { title: 'Module' })).course.modules[0]!.id;
  // One lesson per upload the bench may send as this vendor.
  const lessonIds: string[] = [];
  for (let l = 0; l < (i === 0 ? VENDORS : 1); l++)
    lessonIds.push(
      (await post(vr.addCourseLesson.path, { moduleId, title: `Lesson ${l}` })).lessonId!,
    );
  vendors.push({ token, productId, lessonIds });
}

console.log(JSON.stringify({ url: b.url, pid: process.pid, vendors }));
process.once('SIGTERM', () => {
  void b
    .close()
    .finally(() => rmSync(dataDir, { recursive: true, force: true }))
    .then(() => process.exit(0));
});
