import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  coursesRoutes,
  vendorCoursesRoutes as vr,
  type Course,
  type RouteDef,
  type VendorCourse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorToken } from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer } from '../../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/http.ts';

// The vendor's course builder through HTTP on a real database: who may call (403/404 on every
// route), building a course with a video lesson that a buyer then watches, upload checks (type by
// bytes, size, names), drip, reorder, and deletes that keep buyers' progress (ADR 044).

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-media');
const mp4 = readFileSync(path.join(MEDIA, 'momentum-intro.mp4'));
const pdf = readFileSync(path.join(MEDIA, 'position-sizing-worksheet.pdf'));
/** A WebM's first bytes: the EBML header naming the `webm` doctype. */
const webm = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
  Buffer.from('webm'),
  Buffer.alloc(200, 0),
]);

let t: TestApp;
let vendor: Awaited<ReturnType<typeof createVendor>>;
let token: string;
let product: Awaited<ReturnType<typeof createProduct>>;
let other: { token: string; productId: string };

beforeAll(async () => {
  // A small video limit, so the oversize refusal needs no 200 MB body.
  t = await startTestApp({ COURSE_VIDEO_MAX_MB: '1' });
  vendor = await createVendor(t);
  token = await vendorToken(t, vendor);
  product = await createProduct(t, vendor.id, { kind: 'course', amount: 4_900 });
  const otherVendor = await createVendor(t);
  other = {
    token: await vendorToken(t, otherVendor),
    productId: (await createProduct(t, otherVendor.id, { kind: 'course' })).id,
  };
});
afterAll(() => t?.close());

const call = (route: RouteDef, params: Record<string, string>, body?: unknown, as = token) =>
  t.call(route, { token: as, params, ...(body === undefined ? {} : { body }) });

async function ok(res: Awaited<ReturnType<typeof call>>, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().course as VendorCourse;
}

function upload(
  kind: 'video' | 'attachments',
  productId: string,
  lessonId: string,
  file: { name: string; data: Buffer; type?: string },
  as = token,
) {
  const { body, contentType } = multipartBody([
    {
      name: 'file',
      filename: file.name,
      type: file.type ?? 'application/octet-stream',
      data: file.data,
    },
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/vendor/courses/${productId}/lessons/${lessonId}/${kind}`,
    payload: body,
    headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
  });
}

/** A new course product with one module and one lesson; answers their ids. */
async function courseWithLesson(title = 'Lesson one') {
  const p = await createProduct(t, vendor.id, { kind: 'course', amount: 2_900 });
  let course = await ok(
    await call(vr.addCourseModule, { productId: p.id }, { title: 'Basics' }),
    201,
  );
  const moduleId = course.modules[0]!.id;
  const added = await call(vr.addCourseLesson, { productId: p.id }, { moduleId, title });
  expect(added.statusCode, added.body).toBe(201);
  course = added.json().course;
  return { product: p, moduleId, lessonId: added.json().lessonId as string, course };
}

const buyerCourse = async (buyerToken: string, productId: string) => {
  const res = await t.call(coursesRoutes.courseDetails, {
    token: buyerToken,
    params: { id: productId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().course as Course;
};
const lessonsOf = (course: Course) => course.modules.flatMap((m) => m.lessons);

describe('who may build', () => {
  it('refuses a buyer (403) and another vendor (404) on every route', async () => {
    const { product: p, moduleId, lessonId } = await courseWithLesson();
    const attached = await upload('attachments', p.id, lessonId, { name: 'sheet.pdf', data: pdf });
    const fileId = (attached.json().course as VendorCourse).modules[0]!.lessons[0]!.attachments[0]!
      .id;
    const buyer = await createBuyer(t);
    const ids = { productId: p.id, moduleId, lessonId, fileId };
    const bodies: Record<string, unknown> = {
      addCourseModule: { title: 'X' },
      renameCourseModule: { title: 'X' },
      reorderCourse: { modules: [{ id: moduleId, lessons: [lessonId] }] },
      addCourseLesson: { moduleId, title: 'X' },
      updateCourseLesson: { title: 'X' },
    };
    for (const [name, route] of Object.entries(vr)) {
      if (route.multipart) continue;
      const params = route.path.includes('{productId}') ? ids : {};
      const asBuyer = await call(route, params, bodies[name], buyer.token);
      expect(asBuyer.statusCode, `${name} as a buyer`).toBe(403);
      expect(asBuyer.json().code).toBe('forbidden');
      if (!route.path.includes('{productId}')) continue;
      const asOther = await call(route, params, bodies[name], other.token);
      expect(asOther.statusCode, `${name} as another vendor`).toBe(404);
    }
    for (const kind of ['video', 'attachments'] as const) {
      const file = { name: 'a.mp4', data: mp4 };
      expect((await upload(kind, p.id, lessonId, file, buyer.token)).statusCode).toBe(403);
      expect((await upload(kind, p.id, lessonId, file, other.token)).statusCode).toBe(404);
    }
    // The other vendor's own product with this vendor's module and lesson ids: still 404.
    const mixed = { productId: other.productId, moduleId, lessonId, fileId };
    for (const route of [vr.renameCourseModule, vr.updateCourseLesson, vr.deleteLessonAttachment])
      expect((await call(route, mixed, { title: 'X' }, other.token)).statusCode).toBe(404);
    expect(
      (
        await call(
          vr.addCourseLesson,
          { productId: other.productId },
          { moduleId, title: 'X' },
          other.token,
        )
      ).statusCode,
    ).toBe(404);
    // Nothing changed.
    const after = await ok(await call(vr.vendorCourse, { productId: p.id }));
    expect(after.modules[0]!.title).toBe('Basics');
    expect(after.modules[0]!.lessons[0]!.title).toBe('Lesson one');
    // A product that is not a course is not one to build.
    const indicator = await createProduct(t, vendor.id, { kind: 'indicator' });
    expect((await call(vr.vendorCourse, { productId: indicator.id })).statusCode).toBe(404);
  });

  it('lists only the vendor’s course products, with counts, page by page', async () => {
    await courseWithLesson();
    const first = await t.call(vr.vendorCourses, { token, query: { limit: '1' } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().courses).toHaveLength(1);
    // The cursor is opaque (signed, ADR 051); it leads to the next course.
    const second = await t.call(vr.vendorCourses, {
      token,
      query: { limit: '1', cursor: first.json().nextCursor },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().courses[0].productId).not.toBe(first.json().courses[0].productId);
    const all = await t.call(vr.vendorCourses, { token, query: { limit: '100' } });
    const ids = all.json().courses.map((c: { productId: string }) => c.productId);
    expect(ids).toContain(product.id);
    expect(ids).not.toContain(other.productId);
    const built = all.json().courses.find((c: { lessonCount: number }) => c.lessonCount === 1);
    expect(built).toMatchObject({ moduleCount: 1, lessonCount: 1, videoCount: 0 });
  });
});

describe('building a course', () => {
  it('builds a video lesson that a buyer who owns the course sees and plays at once', async () => {
    const productId = product.id;
    const empty = await ok(await call(vr.vendorCourse, { productId }));
    expect(empty).toMatchObject({ courseId: null, modules: [] });
    let course = await ok(await call(vr.addCourseModule, { productId }, { title: 'Week 1' }), 201);
    const moduleId = course.modules[0]!.id;
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    expect(lessonsOf(await buyerCourse(buyer.token, productId))).toHaveLength(0);

    const added = await call(
      vr.addCourseLesson,
      { productId },
      { moduleId, title: 'Reading the tape' },
    );
    expect(added.statusCode, added.body).toBe(201);
    const lessonId = added.json().lessonId as string;
    const res = await upload('video', productId, lessonId, {
      name: 'Reading the tape.mp4',
      data: mp4,
      type: 'video/mp4',
    });
    course = await ok(res);
    const lesson = course.modules[0]!.lessons[0]!;
    expect(lesson).toMatchObject({
      kind: 'video',
      video: { name: 'Reading the tape.mp4', sizeBytes: mp4.length, contentType: 'video/mp4' },
    });
    course = await ok(
      await call(
        vr.updateCourseLesson,
        { productId, lessonId },
        {
          body: '## Notes\n\nWatch the **volume**.',
          durationSeconds: 6,
        },
      ),
    );
    expect(course.modules[0]!.lessons[0]!.body).toContain('**volume**');

    // The server chose the storage key: nothing of the uploaded name is in it.
    const stored = await t.database.db.execute<{ video_key: string }>(
      sql`select video_key from course_lessons where id = ${lessonId}`,
    );
    expect(stored.rows[0]!.video_key).toMatch(/^courses\/crs_[^/]+\/les_[^/]+\/vid_[^/]+\.mp4$/);

    const seen = lessonsOf(await buyerCourse(buyer.token, productId));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ title: 'Reading the tape', locked: false });
    expect(seen[0]!.text).toContain('**volume**');
    const url = await t.call(coursesRoutes.videoUrl, {
      token: buyer.token,
      query: { id: seen[0]!.video!.id },
    });
    expect(url.statusCode, url.body).toBe(200);
    const played = await t.app.inject(url.json().url as string);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('video/mp4');
    expect(played.rawPayload.equals(mp4)).toBe(true);

    // Someone who has not bought it learns nothing of the paid lesson's video.
    const stranger = await createBuyer(t);
    const outline = lessonsOf(await buyerCourse(stranger.token, productId));
    expect(outline[0]!.video).toBeNull();

    // A replaced video gets a new public id: the old id stops resolving.
    course = await ok(
      await upload('video', productId, lessonId, { name: 'take2.webm', data: webm }),
    );
    expect(course.modules[0]!.lessons[0]!.video).toMatchObject({ contentType: 'video/webm' });
    const oldId = seen[0]!.video!.id;
    expect(
      (await t.call(coursesRoutes.videoUrl, { token: buyer.token, query: { id: oldId } }))
        .statusCode,
    ).toBe(404);
  });

  it('adds attachments a buyer can download, and removes them', async () => {
    const { product: p, lessonId } = await courseWithLesson();
    await ok(
      await upload('attachments', p.id, lessonId, {
        name: 'levels.csv',
        data: Buffer.from('date,close\n2026-01-02,101.5\n'),
      }),
      201,
    );
    let course = await ok(
      await upload('attachments', p.id, lessonId, { name: 'worksheet.pdf', data: pdf }),
      201,
    );
    const files = course.modules[0]!.lessons[0]!.attachments;
    expect(files.map((f) => [f.name, f.contentType])).toEqual([
      ['levels.csv', 'text/csv'],
      ['worksheet.pdf', 'application/pdf'],
    ]);
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const seen = lessonsOf(await buyerCourse(buyer.token, p.id))[0]!;
    const link = await t.call(coursesRoutes.attachmentUrl, {
      token: buyer.token,
      query: { id: seen.attachments[1]!.id! },
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ name: 'worksheet.pdf', contentType: 'application/pdf' });
    const got = await t.app.inject(link.json().url as string);
    expect(got.rawPayload.equals(pdf)).toBe(true);

    course = await ok(
      await call(vr.deleteLessonAttachment, { productId: p.id, lessonId, fileId: files[1]!.id }),
    );
    expect(course.modules[0]!.lessons[0]!.attachments).toHaveLength(1);
    expect(
      (
        await t.call(coursesRoutes.attachmentUrl, {
          token: buyer.token,
          query: { id: files[1]!.id },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('uploads refuse what they should', () => {
  it('refuses wrong types by their bytes, oversize files and names with paths; stores nothing', async () => {
    const { product: p, lessonId } = await courseWithLesson();
    const count = async () =>
      Number(
        (
          await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from course_files
            where lesson_id = ${lessonId}`)
        ).rows[0]!.n,
      );
    // A PDF named like a video, an HTML page named like a PDF, a Windows program named like a zip.
    const pdfAsVideo = await upload('video', p.id, lessonId, {
      name: 'clip.mp4',
      data: pdf,
      type: 'video/mp4',
    });
    expect(pdfAsVideo.statusCode).toBe(415);
    expect(pdfAsVideo.json()).toMatchObject({
      code: 'unsupported_media_type',
      fields: { file: expect.any(String) },
    });
    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 0)]);
    expect(
      (await upload('attachments', p.id, lessonId, { name: 'tools.zip', data: program }))
        .statusCode,
    ).toBe(415);
    expect(
      (await upload('attachments', p.id, lessonId, { name: 'clip.pdf', data: mp4 })).statusCode,
    ).toBe(415);
    // An image is not a video, even as ISO-BMFF.
    const avif = Buffer.concat([
      Buffer.from([0, 0, 0, 0x1c]),
      Buffer.from('ftypavif'),
      Buffer.alloc(64, 0),
    ]);
    expect((await upload('video', p.id, lessonId, { name: 'x.mp4', data: avif })).statusCode).toBe(
      415,
    );

    const big = Buffer.concat([mp4, Buffer.alloc(1024 * 1024, 0)]);
    const oversize = await upload('video', p.id, lessonId, { name: 'long.mp4', data: big });
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json().error).toBe('Videos can be up to 1 MB.');

    for (const name of [
      '../../etc/passwd.pdf',
      'folder/sheet.pdf',
      '..\\sheet.pdf',
      '.htaccess',
      'a..pdf',
    ]) {
      const res = await upload('attachments', p.id, lessonId, { name, data: pdf });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().fields.file).toMatch(/plain file name/);
    }
    const empty = await upload('attachments', p.id, lessonId, {
      name: 'empty.pdf',
      data: Buffer.alloc(0),
    });
    expect(empty.statusCode).toBe(400);
    expect(await count()).toBe(0);
    const course = await ok(await call(vr.vendorCourse, { productId: p.id }));
    expect(course.modules[0]!.lessons[0]!.video).toBeNull();
  });
});

describe('drip and order', () => {
  it('drip days keep a lesson locked until its day, and a lesson already open stays open', async () => {
    const { product: p, moduleId, lessonId } = await courseWithLesson('Day one');
    const later = await call(
      vr.addCourseLesson,
      { productId: p.id },
      { moduleId, title: 'Day three' },
    );
    const laterId = later.json().lessonId as string;
    await upload('video', p.id, laterId, { name: 'day3.mp4', data: mp4 });
    await ok(
      await call(vr.updateCourseLesson, { productId: p.id, lessonId: laterId }, { dripDays: 3 }),
    );
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const locked = lessonsOf(await buyerCourse(buyer.token, p.id)).find((l) => l.id === laterId)!;
    expect(locked).toMatchObject({ locked: true, lockReason: 'drip', dripDays: 3, video: null });
    const videoId = (await ok(await call(vr.vendorCourse, { productId: p.id }))).modules[0]!
      .lessons[1]!.video!.id;
    const refused = await t.call(coursesRoutes.videoUrl, {
      token: buyer.token,
      query: { id: videoId },
    });
    expect(refused.statusCode).toBe(403);

    await t.database.db.execute(sql`update entitlements set created_at = now() - interval '4 days'
      where purchase_id = ${buyer.purchaseId}`);
    expect(
      lessonsOf(await buyerCourse(buyer.token, p.id)).find((l) => l.id === laterId)!.locked,
    ).toBe(false);
    // Pushing the delay out later does not close what a buyer already has.
    await ok(
      await call(vr.updateCourseLesson, { productId: p.id, lessonId: laterId }, { dripDays: 30 }),
    );
    expect(
      lessonsOf(await buyerCourse(buyer.token, p.id)).find((l) => l.id === laterId)!.locked,
    ).toBe(false);
    // A new buyer waits the new delay.
    const late = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    expect(
      lessonsOf(await buyerCourse(late.token, p.id)).find((l) => l.id === laterId)!.locked,
    ).toBe(true);
    expect(lessonId).toBeTruthy();
    const bad = await call(
      vr.updateCourseLesson,
      { productId: p.id, lessonId: laterId },
      { dripDays: -1 },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('reorders modules and lessons, moves a lesson between modules, and refuses a stale order', async () => {
    const { product: p, moduleId: first, lessonId: a } = await courseWithLesson('A');
    const b = (
      await call(vr.addCourseLesson, { productId: p.id }, { moduleId: first, title: 'B' })
    ).json().lessonId as string;
    const second = (
      await ok(await call(vr.addCourseModule, { productId: p.id }, { title: 'Second' }), 201)
    ).modules[1]!.id;
    const c = (
      await call(vr.addCourseLesson, { productId: p.id }, { moduleId: second, title: 'C' })
    ).json().lessonId as string;
    const course = await ok(
      await call(
        vr.reorderCourse,
        { productId: p.id },
        {
          modules: [
            { id: second, lessons: [c, a] },
            { id: first, lessons: [b] },
          ],
        },
      ),
    );
    expect(course.modules.map((m) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ['Second', ['C', 'A']],
      ['Basics', ['B']],
    ]);
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    expect(lessonsOf(await buyerCourse(buyer.token, p.id)).map((l) => l.title)).toEqual([
      'C',
      'A',
      'B',
    ]);

    const stale = await call(
      vr.reorderCourse,
      { productId: p.id },
      {
        modules: [
          { id: second, lessons: [c] },
          { id: first, lessons: [b] },
        ],
      },
    );
    expect(stale.statusCode).toBe(409);
    const twice = await call(
      vr.reorderCourse,
      { productId: p.id },
      {
        modules: [
          { id: second, lessons: [c, a, a] },
          { id: first, lessons: [b] },
        ],
      },
    );
    expect(twice.statusCode).toBe(409);
  });
});

describe('deleting', () => {
  it('hides a deleted lesson and its media from buyers at once, keeps their progress, and can be undone', async () => {
    const { product: p, lessonId } = await courseWithLesson('Keep me');
    await upload('video', p.id, lessonId, { name: 'keep.mp4', data: mp4 });
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, p.priceId);
    const videoId = lessonsOf(await buyerCourse(buyer.token, p.id))[0]!.video!.id;
    const saved = await t.call(coursesRoutes.lessonProgress, {
      token: buyer.token,
      params: { id: p.id, lessonId },
      body: { positionSeconds: 4, completed: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (await ok(await call(vr.vendorCourse, { productId: p.id }))).modules[0]!.lessons[0]!.learners,
    ).toBe(1);

    let course = await ok(await call(vr.deleteCourseLesson, { productId: p.id, lessonId }));
    expect(course.modules[0]!.lessons).toHaveLength(0);
    expect(course.deleted).toEqual([expect.objectContaining({ id: lessonId, title: 'Keep me' })]);
    const gone = await buyerCourse(buyer.token, p.id);
    expect(lessonsOf(gone)).toHaveLength(0);
    expect(gone.progress).toMatchObject({ total: 0 });
    expect(
      (await t.call(coursesRoutes.videoUrl, { token: buyer.token, query: { id: videoId } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.call(coursesRoutes.lessonProgress, {
          token: buyer.token,
          params: { id: p.id, lessonId },
          body: { positionSeconds: 1 },
        })
      ).statusCode,
    ).toBe(404);
    // Deleted once is not deletable again; restoring brings it back with the buyer's progress.
    expect((await call(vr.deleteCourseLesson, { productId: p.id, lessonId })).statusCode).toBe(404);
    course = await ok(await call(vr.restoreCourseLesson, { productId: p.id, lessonId }));
    expect(course.modules[0]!.lessons.map((l) => l.id)).toEqual([lessonId]);
    const back = await buyerCourse(buyer.token, p.id);
    expect(lessonsOf(back)[0]!.progress).toMatchObject({ completed: true, positionSeconds: 4 });
    expect(back.progress).toMatchObject({ completed: 1, total: 1 });
    expect(
      (await t.call(coursesRoutes.videoUrl, { token: buyer.token, query: { id: videoId } }))
        .statusCode,
    ).toBe(200);
  });

  it('deletes a module with its lessons; restoring a lesson brings the module back', async () => {
    const { product: p, moduleId, lessonId } = await courseWithLesson('Inside');
    let course = await ok(
      await call(vr.renameCourseModule, { productId: p.id, moduleId }, { title: '  Renamed  ' }),
    );
    expect(course.modules[0]!.title).toBe('Renamed');
    expect(
      (await call(vr.renameCourseModule, { productId: p.id, moduleId }, { title: ' ' })).json(),
    ).toMatchObject({ code: 'validation_failed' });
    course = await ok(await call(vr.deleteCourseModule, { productId: p.id, moduleId }));
    expect(course.modules).toHaveLength(0);
    course = await ok(await call(vr.restoreCourseLesson, { productId: p.id, lessonId }));
    expect(course.modules.map((m) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ['Renamed', ['Inside']],
    ]);
  });
});
