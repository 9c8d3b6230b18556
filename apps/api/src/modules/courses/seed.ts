// Demo data: every course product gets modules and lessons that play real short videos with
// captions and download a real worksheet (files in `demo-media/`, copied into storage at start), with
// one free preview and one drip lesson; the demo buyer is enrolled in one course with some progress.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../integrations/storage/port.ts';
import { newId } from '../../lib.ts';

const MEDIA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-media');

/** Demo files and their storage keys (private: served only through signed URLs). */
export const demoCourseMedia = {
  intro: { file: 'momentum-intro.mp4', type: 'video/mp4', seconds: 6 },
  reading: { file: 'reading-momentum.mp4', type: 'video/mp4', seconds: 5 },
  introCaptions: { file: 'momentum-intro.en.vtt', type: 'text/vtt' },
  readingCaptions: { file: 'reading-momentum.en.vtt', type: 'text/vtt' },
  worksheet: { file: 'position-sizing-worksheet.pdf', type: 'application/pdf' },
} as const;
const keyOf = (file: string) => `courses/demo/${file}`;

/** Copies the demo media into storage (skips what is there). Returns how many it stored. */
export async function storeDemoCourseMedia(storage: Storage): Promise<number> {
  let stored = 0;
  for (const media of Object.values(demoCourseMedia)) {
    if (await storage.exists(keyOf(media.file))) continue;
    await storage.put(
      keyOf(media.file),
      await readFile(path.join(MEDIA_DIR, media.file)),
      media.type,
    );
    stored++;
  }
  return stored;
}

const sizeOf = async (file: string) => (await stat(path.join(MEDIA_DIR, file))).size;

/** The drip lesson of a demo course opens this many days after enrolment. */
export const DEMO_DRIP_DAYS = 7;

/** Idempotent: gives each course product without content its demo modules and lessons. */
export async function seedDemoCourses(db: Db): Promise<number> {
  const products = (
    await db.execute<{ id: string; title: string }>(sql`
      select p.id, p.title from products p
      where p.kind = 'course' and not exists (select 1 from courses c where c.product_id = p.id)
      order by p.title`)
  ).rows;
  const m = demoCourseMedia;
  const sizes = Object.fromEntries(
    await Promise.all(Object.entries(m).map(async ([k, v]) => [k, await sizeOf(v.file)] as const)),
  ) as Record<keyof typeof m, number>;
  for (const product of products) {
    await db.transaction(async (tx) => {
      const courseId = newId('crs');
      await tx.execute(
        sql`insert into courses (id, product_id) values (${courseId}, ${product.id})`,
      );
      const outline = [
        {
          title: 'Getting started',
          lessons: [
            {
              title: 'Welcome and how the course works',
              kind: 'video',
              video: m.intro,
              preview: true,
              body: `What ${product.title} covers, how the lessons build on each other and how to practise between them.`,
              captions: [m.introCaptions],
              attachments: [],
            },
            {
              title: 'Reading momentum on the chart',
              kind: 'video',
              video: m.reading,
              body: 'Compare each swing with the one before it: speed, not direction, is what fades first.',
              captions: [m.readingCaptions],
              attachments: [m.worksheet],
            },
          ],
        },
        {
          title: 'Putting it to work',
          lessons: [
            {
              title: 'Position sizing checklist',
              kind: 'text',
              body: 'Risk a fixed share of the account per trade. Size = risk ÷ distance to the stop. Write the numbers down before you enter.',
              captions: [],
              attachments: [m.worksheet],
            },
            {
              title: 'Live trade review',
              kind: 'video',
              video: m.intro,
              dripDays: DEMO_DRIP_DAYS,
              body: 'A trade from plan to exit, with what went right and what did not.',
              captions: [m.introCaptions],
              attachments: [],
            },
          ],
        },
      ] as const;
      let lessonPosition = 0;
      for (const [modulePosition, mod] of outline.entries()) {
        const moduleId = newId('cmod');
        await tx.execute(sql`insert into course_modules (id, course_id, title, position)
          values (${moduleId}, ${courseId}, ${mod.title}, ${modulePosition})`);
        for (const lesson of mod.lessons) {
          const lessonId = newId('les');
          const video = 'video' in lesson ? lesson.video : null;
          await tx.execute(sql`insert into course_lessons (id, course_id, module_id, title, position,
              kind, body, video_id, video_key, video_type, duration_seconds, preview, drip_days)
            values (${lessonId}, ${courseId}, ${moduleId}, ${lesson.title}, ${lessonPosition++},
              ${lesson.kind}, ${lesson.body}, ${video ? newId('vid') : null},
              ${video ? keyOf(video.file) : null}, ${video?.type ?? null}, ${video?.seconds ?? null},
              ${'preview' in lesson}, ${'dripDays' in lesson ? lesson.dripDays : 0})`);
          for (const [i, file] of lesson.captions.entries())
            await tx.execute(sql`insert into course_files (id, lesson_id, kind, name, storage_key,
                content_type, size_bytes, language, label, position)
              values (${newId('cap')}, ${lessonId}, 'caption', ${file.file}, ${keyOf(file.file)},
                ${file.type}, ${sizes[file === m.introCaptions ? 'introCaptions' : 'readingCaptions']},
                'en', 'English', ${i})`);
          for (const [i, file] of lesson.attachments.entries())
            await tx.execute(sql`insert into course_files (id, lesson_id, kind, name, storage_key,
                content_type, size_bytes, position)
              values (${newId('att')}, ${lessonId}, 'attachment', ${file.file}, ${keyOf(file.file)},
                ${file.type}, ${sizes.worksheet}, ${i})`);
        }
      }
    });
  }
  return products.length;
}

/**
 * The demo buyer's progress in the course they are enrolled in: the first lesson done, the second
 * watched part way (the course page resumes there).
 */
export async function seedDemoCourseProgress(
  db: Db,
  userId: string,
  productId: string,
): Promise<void> {
  const lessons = (
    await db.execute<{ id: string; course_id: string }>(sql`
      select l.id, l.course_id from course_lessons l join courses c on c.id = l.course_id
      join course_modules m on m.id = l.module_id
      where c.product_id = ${productId} order by m.position, l.position limit 2`)
  ).rows;
  const [first, second] = lessons;
  if (!first || !second) return;
  await db.execute(sql`insert into course_progress (user_id, lesson_id, course_id, position_seconds,
      completed_at, updated_at)
    values (${userId}, ${first.id}, ${first.course_id}, 6, now() - interval '2 days', now() - interval '2 days'),
      (${userId}, ${second.id}, ${second.course_id}, 2, null, now() - interval '1 day')
    on conflict do nothing`);
}
