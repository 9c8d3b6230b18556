import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coursesRoutes, type Course } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer, deliverEvent } from '../../../test/factories/orders.ts';
import { useTestApp } from '../../../test/harness.ts';
import { setDripDays } from './index.ts';
import { DEMO_DRIP_DAYS, seedDemoCourses, storeDemoCourseMedia } from './seed.ts';

// Courses end to end through the API on a real database: buy through the sandbox checkout, see the
// outline or the content, drip, signed media URLs (Range, expiry, tampering), progress, refund.

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-media');
const video = readFileSync(path.join(MEDIA, 'momentum-intro.mp4'));

const t = useTestApp();
let vendorUrl: string;
let product: Awaited<ReturnType<typeof createProduct>>;
let courseId: string;
/** The course's lessons in order: preview video, video with attachment, text, drip video. */
let lessons: Array<{ id: string; video_id: string | null; body: string; drip_days: number }>;
let files: Array<{ id: string; lesson_id: string; kind: string; name: string }>;

beforeAll(async () => {
  const vendor = await createVendor(t);
  vendorUrl = vendor.vendorUrl;
  // The demo outline of four lessons: preview, worksheet video, reading, drip video.
  product = await createProduct(t, vendor.id, {
    kind: 'course',
    amount: 19_900,
    title: 'Chart Reading Fundamentals',
  });
  await seedDemoCourses(t.database.db);
  await storeDemoCourseMedia(t.deps.storage);
  const db = t.database.db;
  courseId = (
    await db.execute<{ id: string }>(sql`select id from courses where product_id = ${product.id}`)
  ).rows[0]!.id;
  lessons = (
    await db.execute<(typeof lessons)[number]>(sql`
      select l.id, l.video_id, l.body, l.drip_days from course_lessons l
      join course_modules m on m.id = l.module_id
      where l.course_id = ${courseId} order by m.position, l.position`)
  ).rows;
  files = (
    await db.execute<(typeof files)[number]>(sql`
      select f.id, f.lesson_id, f.kind, f.name from course_files f
      join course_lessons l on l.id = f.lesson_id where l.course_id = ${courseId}`)
  ).rows;
});

const buyCourse = () => buyPaidProduct(t, vendorUrl, product.priceId);

const details = async (token: string | null, id = courseId) => {
  const res = await t.call(coursesRoutes.courseDetails, { token, params: { id } });
  expect(res.statusCode, res.body).toBe(200);
  return { course: res.json().course as Course, raw: res.body };
};
const lessonsOf = (course: Course) => course.modules.flatMap((m) => m.lessons);
const videoUrl = (token: string | null, id: string) =>
  t.call(coursesRoutes.videoUrl, { token, query: { id } });
const attachmentUrl = (token: string | null, id: string) =>
  t.call(coursesRoutes.attachmentUrl, { token, query: { id } });
const progress = (token: string, lessonId: string, body: unknown) =>
  t.call(coursesRoutes.lessonProgress, {
    token,
    params: { id: courseId, lessonId },
    body,
  });
/** Moves a buyer's enrolment start back, as if they had bought `days` days ago. */
const enrolledDaysAgo = (purchaseId: string, days: number) =>
  t.database.db
    .execute(sql`update entitlements set created_at = now() - make_interval(days => ${days})
    where purchase_id = ${purchaseId}`);
const expectErrorShape = (body: string, code: string) => {
  const json = JSON.parse(body) as { error: unknown; code: unknown };
  expect(typeof json.error).toBe('string');
  expect(json.code).toBe(code);
};

describe('without an enrolment', () => {
  it('shows the outline, the preview and what to buy, never paid content', async () => {
    const outsider = await createBuyer(t);
    for (const token of [null, outsider.token]) {
      const { course, raw } = await details(token);
      expect(course.enrolled).toBe(false);
      expect(course.offer).toMatchObject({ id: product.id, priceId: product.priceId });
      expect(course.offer!.price.amount).toBe(19_900);
      expect(course.lessonCount).toBe(4);
      const [preview, ...paid] = lessonsOf(course);
      expect(preview!.locked).toBe(false);
      expect(preview!.video!.id).toBe(lessons[0]!.video_id);
      for (const lesson of paid) {
        expect(lesson).toMatchObject({ locked: true, lockReason: 'not_enrolled', video: null });
        expect(lesson.text).toBeNull();
        for (const a of lesson.attachments) expect(a.id).toBeNull();
      }
      expect(paid[0]!.attachments[0]).toMatchObject({ name: 'position-sizing-worksheet.pdf' });
      expect(paid[0]!.attachments[0]!.sizeBytes).toBeGreaterThan(100);
      // Nothing of a paid lesson is in the answer: no video or file ids, no text.
      for (const lesson of lessons.slice(1)) {
        if (lesson.video_id) expect(raw).not.toContain(lesson.video_id);
        expect(raw).not.toContain(lesson.body);
      }
      for (const file of files) expect(raw).not.toContain(file.id);
    }
    // The product id finds the course too (the product page links to it).
    expect((await details(null, product.id)).course.id).toBe(courseId);
  });

  it('signs the preview video for anyone and refuses the rest with 404', async () => {
    const preview = await videoUrl(null, lessons[0]!.video_id!);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().captions[0]).toMatchObject({ language: 'en', label: 'English' });
    const outsider = await createBuyer(t);
    for (const token of [null, outsider.token]) {
      expect((await videoUrl(token, lessons[1]!.video_id!)).statusCode).toBe(404);
      expect((await videoUrl(token, lessons[3]!.video_id!)).statusCode).toBe(404);
    }
    const attachment = files.find((f) => f.kind === 'attachment')!;
    const refused = await attachmentUrl(outsider.token, attachment.id);
    expect(refused.statusCode).toBe(404);
    expectErrorShape(refused.body, 'not_found');
    expect((await attachmentUrl(null, attachment.id)).statusCode).toBe(401);
    expect((await videoUrl(outsider.token, 'vid_unknown')).statusCode).toBe(404);
    expect((await t.call(coursesRoutes.userCourses, { token: outsider.token })).json()).toEqual({
      courses: [],
      nextCursor: null,
    });
    const unknown = await t.call(coursesRoutes.courseDetails, { params: { id: 'crs_nope' } });
    expect(unknown.statusCode).toBe(404);
    expectErrorShape(unknown.body, 'not_found');
  });
});

describe('an enrolled buyer', () => {
  it('lists the course with progress and resumes where they left off', async () => {
    const buyer = await buyCourse();
    const listed = await t.call(coursesRoutes.userCourses, { token: buyer.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().courses).toHaveLength(1);
    expect(listed.json().courses[0]).toMatchObject({
      id: courseId,
      product: { id: product.id },
      lessonCount: 4,
      progress: { completed: 0, total: 4, percent: 0 },
      resume: { lessonId: lessons[0]!.id, positionSeconds: 0 },
    });

    expect(
      (await progress(buyer.token, lessons[0]!.id, { positionSeconds: 6, completed: true }))
        .statusCode,
    ).toBe(200);
    const saved = await progress(buyer.token, lessons[1]!.id, { positionSeconds: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      lessonId: lessons[1]!.id,
      progress: { positionSeconds: 3, completed: false },
      course: { completed: 1, total: 4, percent: 25 },
    });
    const { course } = await details(buyer.token);
    expect(course.enrolled).toBe(true);
    expect(course.offer).toBeNull();
    expect(course.resume).toMatchObject({ lessonId: lessons[1]!.id, positionSeconds: 3 });
    expect(course.progress).toEqual({ completed: 1, total: 4, percent: 25 });
    expect(course.modules[0]!.progress).toEqual({ completed: 1, total: 2, percent: 50 });
    const [, second, text] = lessonsOf(course);
    expect(second!.video!.id).toBe(lessons[1]!.video_id);
    expect(second!.progress).toMatchObject({ positionSeconds: 3, completed: false });
    expect(text!.text).toBe(lessons[2]!.body);
    expect(text!.attachments[0]!.id).toEqual(expect.any(String));

    // Completion only moves forward unless reset; positions are bounded by the lesson.
    const again = await progress(buyer.token, lessons[0]!.id, {
      positionSeconds: 1,
      completed: false,
    });
    expect(again.json().progress).toMatchObject({ completed: true, positionSeconds: 1 });
    const clamped = await progress(buyer.token, lessons[0]!.id, { positionSeconds: 5_000 });
    expect(clamped.json().progress.positionSeconds).toBe(6);
    const reset = await progress(buyer.token, lessons[0]!.id, { positionSeconds: 0, reset: true });
    expect(reset.json()).toMatchObject({
      progress: { completed: false },
      course: { completed: 0, percent: 0 },
    });
    for (const bad of [
      { positionSeconds: -1 },
      { positionSeconds: 86_401 },
      { positionSeconds: 'abc' },
      { positionSeconds: 1.5 },
      {},
    ]) {
      const res = await progress(buyer.token, lessons[0]!.id, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    expect((await progress(buyer.token, 'les_nope', { positionSeconds: 1 })).statusCode).toBe(404);
    const outsider = await createBuyer(t);
    const notEnrolled = await progress(outsider.token, lessons[1]!.id, { positionSeconds: 1 });
    expect(notEnrolled.statusCode).toBe(403);
    expectErrorShape(notEnrolled.body, 'forbidden');
  });

  it('opens a drip lesson N days after enrolment, and an open lesson stays open', async () => {
    const buyer = await buyCourse();
    const drip = lessons[3]!;
    expect(drip.drip_days).toBe(DEMO_DRIP_DAYS);
    const locked = lessonsOf((await details(buyer.token)).course)[3]!;
    expect(locked).toMatchObject({ locked: true, lockReason: 'drip', video: null, text: null });
    const opensAt = new Date(locked.opensAt!).getTime();
    expect(Math.abs(opensAt - (Date.now() + DEMO_DRIP_DAYS * 86_400_000))).toBeLessThan(120_000);
    const refused = await videoUrl(buyer.token, drip.video_id!);
    expect(refused.statusCode).toBe(403);
    expectErrorShape(refused.body, 'forbidden');
    expect((await progress(buyer.token, drip.id, { positionSeconds: 1 })).statusCode).toBe(403);

    await enrolledDaysAgo(buyer.purchaseId, DEMO_DRIP_DAYS + 1);
    const opened = lessonsOf((await details(buyer.token)).course)[3]!;
    expect(opened).toMatchObject({ locked: false, lockReason: null, video: { id: drip.video_id } });
    expect((await videoUrl(buyer.token, drip.video_id!)).statusCode).toBe(200);

    // The vendor raises the delay: what opened stays open, for a buyer who saw it open and for one
    // who never looked.
    const quiet = await buyCourse();
    await enrolledDaysAgo(quiet.purchaseId, DEMO_DRIP_DAYS + 1);
    const late = await buyCourse();
    await setDripDays(t.database.db, drip.id, 30);
    for (const who of [buyer, quiet]) {
      const still = lessonsOf((await details(who.token)).course)[3]!;
      expect(still.locked).toBe(false);
      expect((await videoUrl(who.token, drip.video_id!)).statusCode).toBe(200);
    }
    // A buyer for whom it had not opened waits for the new delay.
    expect(lessonsOf((await details(late.token)).course)[3]).toMatchObject({
      locked: true,
      dripDays: 30,
    });
    // Raised behind the module's back (straight in the table): a recorded open still holds.
    await t.database.db.execute(
      sql`update course_lessons set drip_days = 60 where id = ${drip.id}`,
    );
    expect(lessonsOf((await details(buyer.token)).course)[3]!.locked).toBe(false);
    await setDripDays(t.database.db, drip.id, DEMO_DRIP_DAYS);
  });
});

describe('signed media URLs', () => {
  it('serves the video with Range, captions beside it, and refuses expired or tampered links', async () => {
    const buyer = await buyCourse();
    const res = await videoUrl(buyer.token, lessons[0]!.video_id!);
    expect(res.statusCode, res.body).toBe(200);
    const signed = res.json() as {
      url: string;
      expiresAt: string;
      contentType: string;
      captions: Array<{ url: string; contentType: string }>;
    };
    const ttl = new Date(signed.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 1_000);

    const whole = await t.app.inject(signed.url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(video)).toBe(true);

    const part = await t.app.inject({ url: signed.url, headers: { range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${video.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(video.subarray(100, 1100))).toBe(true);
    const tail = await t.app.inject({ url: signed.url, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(video.subarray(video.length - 10))).toBe(true);
    const outside = await t.app.inject({
      url: signed.url,
      headers: { range: `bytes=${video.length}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${video.length}`);
    expectErrorShape(outside.body, 'range_not_satisfiable');

    const captions = await t.app.inject(signed.captions[0]!.url);
    expect(captions.statusCode).toBe(200);
    expect(captions.headers['content-type']).toMatch(/^text\/vtt/);
    expect(captions.body.startsWith('WEBVTT')).toBe(true);

    const tampered = await t.app.inject(
      signed.url.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === '0' ? '1' : '0'}`),
    );
    expect(tampered.statusCode).toBe(403);
    expectErrorShape(tampered.body, 'forbidden');
    const key = new URL(signed.url, 'http://x').pathname.replace(/^\/files\//, '');
    const otherKey = await t.app.inject(signed.url.replace(key, key.replace('intro', 'other')));
    expect(otherKey.statusCode).toBe(403);
    const expired = await t.deps.storage.signedUrl(key, -5);
    const late = await t.app.inject(expired.url);
    expect(late.statusCode).toBe(403);
    expectErrorShape(late.body, 'forbidden');
    expect(late.json().error).toMatch(/expired/);
  });

  it('downloads an attachment under its file name', async () => {
    const buyer = await buyCourse();
    const attachment = files.find((f) => f.kind === 'attachment')!;
    const res = await attachmentUrl(buyer.token, attachment.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'position-sizing-worksheet.pdf',
      contentType: 'application/pdf',
    });
    const file = await t.app.inject(res.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="position-sizing-worksheet.pdf"; filename*=UTF-8''position-sizing-worksheet.pdf`,
    );
    expect(file.body.startsWith('%PDF-1.4')).toBe(true);
    // The name is signed: a link cannot be renamed.
    const renamed = await t.app.inject(res.json().url.replace(/dl=[^&]+/, 'dl=evil.exe'));
    expect(renamed.statusCode).toBe(403);
  });

  it('stops issuing URLs once a refund ends the enrolment', async () => {
    const buyer = await buyCourse();
    const attachment = files.find((f) => f.kind === 'attachment')!;
    expect((await videoUrl(buyer.token, lessons[1]!.video_id!)).statusCode).toBe(200);
    expect((await attachmentUrl(buyer.token, attachment.id)).statusCode).toBe(200);
    const refund = await deliverEvent(t, {
      id: `evt_ref_${buyer.purchaseId}`,
      type: 'refund',
      purchaseId: buyer.purchaseId,
    });
    expect(refund.statusCode).toBe(200);
    expect((await videoUrl(buyer.token, lessons[1]!.video_id!)).statusCode).toBe(404);
    expect((await attachmentUrl(buyer.token, attachment.id)).statusCode).toBe(404);
    expect((await progress(buyer.token, lessons[1]!.id, { positionSeconds: 1 })).statusCode).toBe(
      403,
    );
    expect(
      (await t.call(coursesRoutes.userCourses, { token: buyer.token })).json().courses,
    ).toEqual([]);
    const { course } = await details(buyer.token);
    expect(course.enrolled).toBe(false);
    // The preview stays open to everyone.
    expect((await videoUrl(buyer.token, lessons[0]!.video_id!)).statusCode).toBe(200);
  });
});
