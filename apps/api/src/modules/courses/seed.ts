// Demo data: every course product gets the modules and lessons of its outline (catalog's demo data,
// which its description and cover count from), playing real short videos with captions and a real
// worksheet (files in `demo-media/`, copied into storage at start), with one free preview and one drip
// lesson; the demo buyer is enrolled in one course with some progress.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../integrations/storage/port.ts';
import { newId } from '../../lib.ts';
import { demoCourseOutline, demoLessonRole } from '../catalog/index.ts';

const MEDIA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-media');

/** Demo files and their storage keys (private: served only through signed URLs). */
export const demoCourseMedia = {
  intro: { file: 'momentum-intro.mp4', type: 'video/mp4' },
  reading: { file: 'reading-momentum.mp4', type: 'video/mp4' },
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

/**
 * An MP4's length in whole seconds (at least 1), read from its movie header (`moov/mvhd`), or null
 * when the file has none. The lesson's length is the media's, never a figure typed beside it.
 */
export function mp4Seconds(bytes: Buffer): number | null {
  const box = (from: number, to: number, type: string): [number, number] | null => {
    for (let at = from; at + 8 <= to;) {
      let size = bytes.readUInt32BE(at);
      let head = 8;
      if (size === 1) {
        size = Number(bytes.readBigUInt64BE(at + 8));
        head = 16;
      } else if (size === 0) size = to - at;
      if (size < head) return null;
      if (bytes.toString('latin1', at + 4, at + 8) === type) return [at + head, at + size];
      at += size;
    }
    return null;
  };
  const moov = box(0, bytes.length, 'moov');
  const mvhd = moov && box(moov[0], moov[1], 'mvhd');
  if (!mvhd) return null;
  const [at] = mvhd;
  const v1 = bytes[at] === 1;
  const timescale = bytes.readUInt32BE(at + (v1 ? 20 : 12));
  const units = v1 ? Number(bytes.readBigUInt64BE(at + 24)) : bytes.readUInt32BE(at + 16);
  return timescale ? Math.max(1, Math.round(units / timescale)) : null;
}

/** The demo videos' lengths, probed from the files the lessons play. */
export async function demoVideoSeconds(): Promise<{ intro: number; reading: number }> {
  const probe = async (file: string) => {
    const seconds = mp4Seconds(await readFile(path.join(MEDIA_DIR, file)));
    if (seconds === null) throw new Error(`${file} has no movie header`);
    return seconds;
  };
  const [intro, reading] = await Promise.all([
    probe(demoCourseMedia.intro.file),
    probe(demoCourseMedia.reading.file),
  ]);
  return { intro, reading };
}

/** The drip lesson of a demo course opens this many days after enrolment. */
export const DEMO_DRIP_DAYS = 7;

type Media = { file: string; type: string };

/** Idempotent: gives each course product without content its demo modules and lessons. */
export async function seedDemoCourses(db: Db): Promise<number> {
  const products = (
    await db.execute<{ id: string; title: string }>(sql`
      select p.id, p.title from products p
      where p.kind = 'course' and not exists (select 1 from courses c where c.product_id = p.id)
      order by p.title`)
  ).rows;
  if (!products.length) return 0;
  const m = demoCourseMedia;
  const sizes = Object.fromEntries(
    await Promise.all(Object.entries(m).map(async ([k, v]) => [k, await sizeOf(v.file)] as const)),
  ) as Record<keyof typeof m, number>;
  const seconds = await demoVideoSeconds();
  const intro = { media: m.intro, seconds: seconds.intro, captions: m.introCaptions };
  const reading = { media: m.reading, seconds: seconds.reading, captions: m.readingCaptions };
  for (const product of products) {
    const outline = demoCourseOutline(product.title);
    const count = outline.reduce((sum, mod) => sum + mod.lessons.length, 0);
    await db.transaction(async (tx) => {
      const courseId = newId('crs');
      await tx.execute(
        sql`insert into courses (id, product_id) values (${courseId}, ${product.id})`,
      );
      let lessonPosition = 0;
      for (const [modulePosition, mod] of outline.entries()) {
        const moduleId = newId('cmod');
        await tx.execute(sql`insert into course_modules (id, course_id, title, position)
          values (${moduleId}, ${courseId}, ${mod.title}, ${modulePosition})`);
        for (const [title, body] of mod.lessons) {
          const role = demoLessonRole(lessonPosition, count);
          // Videos take turns between the two demo files; readings have none.
          const video =
            role === 'reading' ? null : role === 'worksheet' || role === 'video' ? reading : intro;
          const attachments: Media[] =
            role === 'worksheet' || role === 'reading' ? [m.worksheet] : [];
          const lessonId = newId('les');
          await tx.execute(sql`insert into course_lessons (id, course_id, module_id, title, position,
              kind, body, video_id, video_key, video_type, duration_seconds, preview, drip_days)
            values (${lessonId}, ${courseId}, ${moduleId}, ${title}, ${lessonPosition++},
              ${video ? 'video' : 'text'}, ${body}, ${video ? newId('vid') : null},
              ${video ? keyOf(video.media.file) : null}, ${video?.media.type ?? null},
              ${video?.seconds ?? null}, ${role === 'preview'},
              ${role === 'drip' ? DEMO_DRIP_DAYS : 0})`);
          if (video)
            await tx.execute(sql`insert into course_files (id, lesson_id, kind, name, storage_key,
                content_type, size_bytes, language, label, position)
              values (${newId('cap')}, ${lessonId}, 'caption', ${video.captions.file},
                ${keyOf(video.captions.file)}, ${video.captions.type},
                ${sizes[video === intro ? 'introCaptions' : 'readingCaptions']}, 'en', 'English', 0)`);
          for (const [i, file] of attachments.entries())
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
