import { coursesRoutes, type Course } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { useDemoApp } from '../../../test/demo.ts';
import { findAccountByEmail } from '../users/index.ts';
import { storeDemoCourseMedia } from './seed.ts';
import { userToken } from '../../../test/factories/users.ts';

// The demo data on first start: the demo buyer's course page shows progress, a preview, a drip
// lesson still locked, and media that play.

const t = useDemoApp();
beforeAll(async () => {
  await storeDemoCourseMedia(t.deps.storage);
});

it('enrols the demo buyer in one course with progress, a preview and a locked drip lesson', async () => {
  const buyer = (await findAccountByEmail(t.database.db, 'buyer@demo.tradeshelf.test'))!;
  const token = await userToken(t, buyer);
  const listed = await t.call(coursesRoutes.userCourses, { token });
  expect(listed.statusCode, listed.body).toBe(200);
  const [summary, ...others] = listed.json().courses;
  expect(others).toEqual([]);
  expect(summary).toMatchObject({
    title: 'Chart Reading Fundamentals',
    progress: { completed: 1, total: 4, percent: 25 },
    resume: { positionSeconds: 2 },
  });

  const res = await t.call(coursesRoutes.courseDetails, { token, params: { id: summary.id } });
  const course = res.json().course as Course;
  const lessons = course.modules.flatMap((m) => m.lessons);
  expect(lessons.map((l) => [l.preview, l.locked, l.lockReason])).toEqual([
    [true, false, null],
    [false, false, null],
    [false, false, null],
    [false, true, 'drip'],
  ]);
  const video = await t.call(coursesRoutes.videoUrl, {
    token,
    query: { id: lessons[1]!.video!.id },
  });
  expect(video.statusCode, video.body).toBe(200);
  const played = await t.app.inject({ url: video.json().url, headers: { range: 'bytes=0-7' } });
  expect(played.statusCode).toBe(206);
  expect(played.rawPayload.subarray(4, 8).toString()).toBe('ftyp');

  // Every other course product has content too, with what to buy for a visitor.
  const other = await t.database.db.execute<{ id: string }>(
    sql`select id from courses where id <> ${summary.id} limit 1`,
  );
  const visitor = await t.call(coursesRoutes.courseDetails, {
    params: { id: other.rows[0]!.id },
  });
  expect(visitor.statusCode, visitor.body).toBe(200);
  expect(visitor.json().course.offer).not.toBeNull();
});
