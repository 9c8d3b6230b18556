import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type {
  Course,
  CourseAttachment,
  CourseLesson,
  CourseProgressSummary,
  CourseSummary,
} from '@tradeshelf/contract';
import { LockIcon } from '../../components/icons.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { Loading, ReadError } from '../../components/screen.tsx';
import { countLabel, formatDate, formatDuration, formatPrice } from '../../lib/format.ts';
import { MarkdownHtml } from '../../lib/markdown.tsx';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { fetchAttachmentUrl, fetchVideoUrl } from './api.ts';
import { useProgressRecorder } from './hooks.ts';

import { coursePath, lessonPath, productPath } from '../../lib/paths.ts';
// Registers the slice this file reads (ADR 038).
import './slice.ts';

export { coursePath, lessonPath };

/** The lesson a course opens on: the one to resume, else the first open one. */
export function startLesson(course: Course): CourseLesson | null {
  const all = course.modules.flatMap((m) => m.lessons);
  return (
    all.find((l) => l.id === course.resume?.lessonId) ??
    all.find((l) => !l.locked) ??
    all[0] ??
    null
  );
}

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/** A progress bar that says what it measures (a native `<progress>`: no inline width needed). */
export function ProgressBar({ summary, label }: { summary: CourseProgressSummary; label: string }) {
  return (
    <div className="flex items-center gap-3">
      <progress
        className="course-progress"
        max={100}
        value={summary.percent}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={summary.percent}
        aria-valuetext={`${summary.percent}% (${summary.completed} of ${countLabel(summary.total, 'lesson')})`}
      />
      <span className="text-xs whitespace-nowrap text-slate-400 tabular-nums">
        {summary.completed}/{summary.total} · {summary.percent}%
      </span>
    </div>
  );
}

export function CourseCard({ course }: { course: CourseSummary }) {
  return (
    <article
      className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4"
      data-testid="course-card"
    >
      <div>
        <h2 className="font-semibold text-white">
          <Link to={coursePath(course.id)} className={`hover:text-brand-300 ${focusRing}`}>
            {course.title}
          </Link>
        </h2>
        <p className="text-xs text-slate-400">
          {course.product.vendor.displayName} · {countLabel(course.lessonCount, 'lesson')} ·
          enrolled <time dateTime={course.enrolledAt}>{formatDate(course.enrolledAt)}</time>
        </p>
      </div>
      <ProgressBar summary={course.progress} label={`${course.title} progress`} />
      {course.resume ? (
        <Link
          to={lessonPath(course.id, course.resume.lessonId)}
          className={`self-start rounded-lg bg-brand-500 px-3 py-2 text-sm font-semibold text-ink-950 hover:bg-brand-400 ${focusRing}`}
          data-testid="course-resume-link"
        >
          Resume: {course.resume.title}
        </Link>
      ) : (
        <Link
          to={coursePath(course.id)}
          className={`self-start rounded-lg border border-ink-600 px-3 py-2 text-sm font-semibold text-slate-200 hover:bg-ink-800 ${focusRing}`}
        >
          {course.progress.percent === 100 ? 'Review the course' : 'Open the course'}
        </Link>
      )}
    </article>
  );
}

function lockLine(lesson: CourseLesson): string | null {
  if (!lesson.locked) return null;
  if (lesson.lockReason === 'drip' && lesson.opensAt)
    return `Opens on ${formatDate(lesson.opensAt)}`;
  return 'Buy the course to unlock';
}

// The media's own length (seconds), as a player shows it: a 6 s clip is "0:06", not "1 min".
const length = (s: number | null) => (s ? formatDuration(s) : null);

/** Modules and their lessons, each lesson a link; locked ones say when they open. */
export function CourseOutline({ course, current }: { course: Course; current: string | null }) {
  return (
    <nav aria-label="Lessons" className="flex flex-col gap-5">
      {course.modules.map((m) => (
        <section key={m.id} aria-labelledby={`module-${m.id}`} className="flex flex-col gap-2">
          <h2 id={`module-${m.id}`} className="font-semibold text-white">
            {m.title}
          </h2>
          {course.enrolled && <ProgressBar summary={m.progress} label={`${m.title} progress`} />}
          <ol className="flex flex-col gap-1">
            {m.lessons.map((l) => {
              const lock = lockLine(l);
              const done = l.progress?.completed ?? false;
              return (
                <li key={l.id}>
                  <Link
                    to={lessonPath(course.id, l.id)}
                    aria-current={l.id === current ? 'page' : undefined}
                    data-testid="lesson-link"
                    className={`flex items-start gap-2 rounded-lg px-2 py-2 text-sm hover:bg-ink-800 ${focusRing} ${
                      l.id === current ? 'bg-ink-800 text-white' : 'text-slate-300'
                    }`}
                  >
                    <span
                      aria-hidden
                      className={`mt-0.5 inline-flex h-4 w-4 shrink-0 items-center justify-center rounded-full text-[10px] ${
                        done ? 'bg-brand-500 text-ink-950' : 'border border-ink-600'
                      }`}
                    >
                      {done ? '✓' : l.locked ? <LockIcon className="h-2.5 w-2.5" /> : ''}
                    </span>
                    <span className="flex flex-col">
                      <span>
                        {l.title}
                        {done && <span className="sr-only"> (completed)</span>}
                        {l.preview && !course.enrolled && (
                          <span className="ml-2 rounded bg-brand-500/20 px-1 text-xs text-brand-200">
                            Free preview
                          </span>
                        )}
                      </span>
                      <span className="text-xs text-slate-400">
                        {[l.kind === 'video' ? 'Video' : 'Reading', length(l.durationSeconds), lock]
                          .filter(Boolean)
                          .join(' · ')}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </nav>
  );
}

function VideoPlayer({
  course,
  lesson,
  startAt,
}: {
  course: Course;
  lesson: CourseLesson;
  startAt: number;
}) {
  const dispatch = useAppDispatch();
  const video = useAppSelector((s) => s.course.video);
  const videoId = lesson.video?.id ?? null;
  const videoRef = useRef<HTMLVideoElement>(null);
  const recorder = useProgressRecorder(course.id, lesson.id, course.enrolled, videoRef);
  useEffect(() => {
    if (videoId) void dispatch(fetchVideoUrl(videoId));
  }, [dispatch, videoId]);

  const source = video.data?.lessonId === lesson.id ? video.data : null;
  if (video.status === 'failure' && video.error)
    return (
      <ReadError
        error={video.error}
        onRetry={() => videoId && void dispatch(fetchVideoUrl(videoId))}
      />
    );
  if (!source) return <Loading label="Loading the video…" size="video" />;
  return (
    <video
      key={source.url}
      ref={videoRef}
      controls
      preload="metadata"
      playsInline
      crossOrigin={source.url.startsWith('http') ? 'anonymous' : undefined}
      className="aspect-video w-full rounded-xl bg-black"
      data-testid="lesson-video"
      onLoadedMetadata={(e) => {
        const v = e.currentTarget;
        const at = startAt;
        // Resume where the buyer left off (not at the very end, which would just end again).
        if (at > 0 && (!Number.isFinite(v.duration) || at < v.duration - 1)) v.currentTime = at;
      }}
      onTimeUpdate={recorder.onTimeUpdate}
      onPause={recorder.onPause}
      onEnded={recorder.onEnded}
    >
      <source src={source.url} type={source.contentType} />
      {source.captions.map((c, i) => (
        <track
          key={c.language}
          kind="captions"
          src={c.url}
          srcLang={c.language}
          label={c.label}
          default={i === 0}
        />
      ))}
    </video>
  );
}

function Attachments({ items }: { items: CourseAttachment[] }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      const link = await dispatch(fetchAttachmentUrl(id)).unwrap();
      window.location.assign(link.url);
    } catch (err) {
      setError((err as { error?: string }).error ?? 'The download could not start.');
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="lesson-files" className="flex flex-col gap-2">
      <h3 id="lesson-files" className="font-semibold text-white">
        Downloads
      </h3>
      {error && <Alert>{error}</Alert>}
      <ul className="flex flex-col gap-2">
        {items.map((a) => (
          <li key={a.name} className="flex flex-wrap items-center gap-3 text-sm">
            {a.id ? (
              <Button
                type="button"
                variant="ghost"
                loading={busy === a.id}
                data-testid="attachment-download"
                onClick={() => void download(a.id!)}
              >
                Download {a.name}
              </Button>
            ) : (
              <span className="text-slate-300">{a.name}</span>
            )}
            <span className="text-xs text-slate-400">{Math.ceil(a.sizeBytes / 1024)} KB</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One lesson: its video or text, its files, and the button that completes it. */
export function LessonView({ course, lesson }: { course: Course; lesson: CourseLesson }) {
  const noVideo = useRef<HTMLVideoElement>(null);
  const recorder = useProgressRecorder(course.id, lesson.id, course.enrolled, noVideo);
  const saving = useAppSelector((s) => s.course.progress.status === 'loading');
  const done = lesson.progress?.completed ?? false;
  const startAt = done ? 0 : (lesson.progress?.positionSeconds ?? 0);
  const lock = lockLine(lesson);
  return (
    <article aria-labelledby="lesson-title" className="flex flex-col gap-4" data-testid="lesson">
      <h2 id="lesson-title" className="text-xl font-bold text-white">
        {lesson.title}
      </h2>
      {lesson.locked ? (
        <div className="rounded-xl border border-ink-700 bg-ink-900 p-6 text-slate-300">
          <p className="font-semibold text-white" data-testid="lesson-locked">
            {lock}
          </p>
          <p className="mt-1 text-sm">
            {lesson.lockReason === 'drip'
              ? 'This lesson opens later in the course.'
              : 'Buy this course to watch this lesson.'}
          </p>
        </div>
      ) : (
        <>
          {lesson.kind === 'video' && lesson.video && (
            <VideoPlayer course={course} lesson={lesson} startAt={startAt} />
          )}
          {lesson.textHtml && (
            <MarkdownHtml
              html={lesson.textHtml}
              className="leading-relaxed text-slate-200"
              testId="lesson-text"
            />
          )}
          {lesson.attachments.length > 0 && <Attachments items={lesson.attachments} />}
          {course.enrolled && (
            <div className="flex items-center gap-3">
              {done ? (
                <p className="text-sm font-semibold text-brand-200" role="status">
                  ✓ Completed
                </p>
              ) : (
                <Button
                  type="button"
                  loading={saving}
                  onClick={() => {
                    const v = document.querySelector<HTMLVideoElement>(
                      '[data-testid="lesson-video"]',
                    );
                    recorder.save(v?.currentTime ?? lesson.progress?.positionSeconds ?? 0, true);
                  }}
                >
                  Mark complete
                </Button>
              )}
            </div>
          )}
        </>
      )}
    </article>
  );
}

/** What a visitor without the course sees beside the outline: the price and a way to buy. */
export function BuyBox({ course }: { course: Course }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-brand-500/40 bg-ink-900 p-4">
      <p className="text-sm text-slate-300">
        You are viewing the outline. Buy the course to open every lesson.
      </p>
      <Link
        to={productPath(course.product)}
        className={`rounded-lg bg-brand-500 px-4 py-2 text-sm font-semibold text-ink-950 hover:bg-brand-400 ${focusRing}`}
        data-testid="course-buy-link"
      >
        {course.offer ? `Buy · ${formatPrice(course.offer.price)}` : 'See the course'}
      </Link>
    </div>
  );
}
