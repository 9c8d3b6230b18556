// The course builder: modules and lessons (add, rename, reorder with buttons, delete with a confirm
// step and undo), each lesson's notes, drip, preview, video and attachments with upload progress.
import {
  COURSE_ATTACHMENT_ACCEPT,
  COURSE_VIDEO_ACCEPT,
  LESSON_BODY_MAX,
} from '@tradeshelf/contract/client';
import type { ApiError, VendorCourse, VendorLesson, VendorModule } from '@tradeshelf/contract';
import type { AsyncThunk } from '@reduxjs/toolkit';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { MarkdownPreview } from '../markdown-preview.tsx';
import type { ThunkConfig } from '../../../lib/thunk.ts';
import { useAction, useRead } from '../request.ts';
import * as api from './api.ts';
import { ConfirmButton } from '../../../components/confirm-step.tsx';
import { UploadControl } from '../../../components/upload-control.tsx';
import {
  dripProblem,
  fileProblem,
  formatBytes,
  moveLesson,
  moveModule,
  orderOf,
  outlineCounts,
  titleProblem,
  type Direction,
} from './outline.ts';
import { countLabel } from '../../../lib/format.ts';
import { BackLink, ReadFailed } from '../screen-kit.tsx';

type SetCourse = (course: VendorCourse) => void;

/** `useAction` for the calls that answer the outline (the explicit answer type helps inference). */
function useCourseAction<Arg>(thunk: AsyncThunk<VendorCourse, Arg, ThunkConfig>) {
  return useAction<Arg, VendorCourse>(thunk);
}

const courseList = { to: '/vendor/courses', label: 'Back to your courses' };

export function CourseBuilder({ productId }: { productId: string }) {
  const read = useRead<string, VendorCourse>(api.fetchVendorCourse, productId);
  const reorder = useCourseAction(api.reorderCourse);
  const [notice, setNotice] = useState<string | null>(null);

  if (read.status === 'failure' && !read.data) return <ReadFailed read={read} back={courseList} />;
  if (!read.data) return <p className="text-slate-400">Loading the course…</p>;
  const course = read.data;
  const counts = outlineCounts(course);

  /** Moves optimistically, then saves the whole order; a refusal reloads what the server has. */
  async function move(next: VendorCourse | null, focusId: string) {
    if (!next) return;
    read.set(next);
    requestAnimationFrame(() => document.getElementById(focusId)?.focus());
    const saved = await reorder.run({ productId, order: orderOf(next) });
    if (saved) read.set(saved);
    else void read.reload();
  }
  const moves = {
    module: (id: string, dir: Direction) => move(moveModule(course, id, dir), `move-${id}-${dir}`),
    lesson: (id: string, dir: Direction) => move(moveLesson(course, id, dir), `move-${id}-${dir}`),
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <BackLink to="/vendor/courses">Courses</BackLink>
          <h1 className="mt-1 text-2xl font-bold text-white">{course.title}</h1>
          <p className="mt-1 text-sm text-slate-400">
            {countLabel(counts.modules, 'module')} · {countLabel(counts.lessons, 'lesson')} ·{' '}
            {countLabel(counts.videos, 'video')}
            {course.isActive ? '' : ' · not on sale'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            to={`/courses/${course.productId}`}
            target="_blank"
            rel="noopener"
            className="rounded-lg border border-ink-600 px-4 py-2.5 text-sm font-semibold text-slate-200 hover:bg-ink-800"
          >
            Preview as buyer
          </Link>
          <Link
            to={`/vendor/products/${course.productId}`}
            className="rounded-lg border border-ink-600 px-4 py-2.5 text-sm font-semibold text-slate-200 hover:bg-ink-800"
          >
            Edit product
          </Link>
        </div>
      </div>
      <p className="text-sm text-slate-400">
        Buyers see every change on their course page at once. Deleted lessons keep buyers’ progress
        and can be restored below.
      </p>
      {reorder.error && <Alert>{reorder.error.error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}

      {course.modules.length === 0 && (
        <Alert tone="info">This course has no modules yet. Add the first one below.</Alert>
      )}
      <ol className="flex flex-col gap-4">
        {course.modules.map((mod, i) => (
          <li key={mod.id}>
            <ModuleCard
              productId={productId}
              mod={mod}
              first={i === 0}
              last={i === course.modules.length - 1}
              course={course}
              setCourse={read.set}
              onMoveModule={moves.module}
              onMoveLesson={moves.lesson}
              setNotice={setNotice}
            />
          </li>
        ))}
      </ol>
      <AddForm
        label="New module title"
        button="Add module"
        action={api.addModule}
        arg={(title) => ({ productId, title })}
        onDone={(c) => read.set(c as VendorCourse)}
      />
      {course.deleted.length > 0 && (
        <DeletedLessons productId={productId} course={course} setCourse={read.set} />
      )}
    </div>
  );
}

/** A one-field form that adds something titled (module or lesson). */
function AddForm<Arg, Res>({
  label,
  button,
  action,
  arg,
  onDone,
}: {
  label: string;
  button: string;
  action: AsyncThunk<Res, Arg, ThunkConfig>;
  arg: (title: string) => Arg;
  onDone: (res: Res) => void;
}) {
  const run = useAction<Arg, Res>(action);
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const p = titleProblem(title);
    setProblem(p);
    if (p) return;
    const res = await run.run(arg(title.trim()));
    if (res) {
      setTitle('');
      onDone(res);
    }
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="min-w-56 flex-1">
        <Field
          label={label}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={problem ?? run.error?.fields?.title ?? run.error?.error ?? null}
        />
      </div>
      <Button type="submit" loading={run.busy}>
        {button}
      </Button>
    </form>
  );
}

function MoveButtons({
  id,
  name,
  first,
  last,
  onMove,
}: {
  id: string;
  name: string;
  first: boolean;
  last: boolean;
  onMove: (id: string, dir: Direction) => void;
}) {
  const cls =
    'rounded-md border border-ink-600 px-2 py-1 text-sm text-slate-200 hover:bg-ink-800 disabled:opacity-40';
  return (
    <span className="inline-flex gap-1">
      <button
        id={`move-${id}--1`}
        type="button"
        className={cls}
        disabled={first}
        aria-label={`Move ${name} up`}
        onClick={() => onMove(id, -1)}
      >
        ↑
      </button>
      <button
        id={`move-${id}-1`}
        type="button"
        className={cls}
        disabled={last}
        aria-label={`Move ${name} down`}
        onClick={() => onMove(id, 1)}
      >
        ↓
      </button>
    </span>
  );
}

function ModuleCard({
  productId,
  mod,
  first,
  last,
  course,
  setCourse,
  onMoveModule,
  onMoveLesson,
  setNotice,
}: {
  productId: string;
  mod: VendorModule;
  first: boolean;
  last: boolean;
  course: VendorCourse;
  setCourse: SetCourse;
  onMoveModule: (id: string, dir: Direction) => void;
  onMoveLesson: (id: string, dir: Direction) => void;
  setNotice: (n: string | null) => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(mod.title);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useCourseAction(api.renameModule);
  const remove = useCourseAction(api.deleteModule);
  const allLessons = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
  const headingId = useId();

  async function saveTitle(e: FormEvent) {
    e.preventDefault();
    const p = titleProblem(title);
    setProblem(p);
    if (p) return;
    const res = await rename.run({ productId, moduleId: mod.id, title: title.trim() });
    if (res) {
      setCourse(res);
      setRenaming(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        {renaming ? (
          <form onSubmit={saveTitle} noValidate className="flex flex-1 flex-wrap items-end gap-2">
            <div className="min-w-56 flex-1">
              <Field
                label="Module title"
                value={title}
                autoFocus
                onChange={(e) => setTitle(e.currentTarget.value)}
                error={problem ?? rename.error?.fields?.title ?? rename.error?.error ?? null}
              />
            </div>
            <Button type="submit" loading={rename.busy}>
              Save
            </Button>
            <Button type="button" variant="ghost" onClick={() => setRenaming(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <>
            <h2 id={headingId} className="flex-1 text-lg font-semibold text-white">
              {mod.title}
            </h2>
            <MoveButtons
              id={mod.id}
              name={`module ${mod.title}`}
              first={first}
              last={last}
              onMove={onMoveModule}
            />
            <Button
              type="button"
              variant="ghost"
              className="px-3 py-1.5"
              aria-label={`Rename module ${mod.title}`}
              onClick={() => {
                setTitle(mod.title);
                setRenaming(true);
              }}
            >
              Rename
            </Button>
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete module ${mod.title}`}
              question={`Delete “${mod.title}” and its ${countLabel(mod.lessons.length, 'lesson')}? Buyers stop seeing them at once; their progress is kept and you can restore each lesson.`}
              confirmLabel="Delete module"
              busy={remove.busy}
              onConfirm={async () => {
                const res = await remove.run({ productId, moduleId: mod.id });
                if (res) {
                  setCourse(res);
                  setNotice(`Deleted “${mod.title}”. Restore its lessons under Deleted lessons.`);
                }
              }}
            />
          </>
        )}
      </div>
      {remove.error && <Alert>{remove.error.error}</Alert>}
      <ol className="flex flex-col gap-2">
        {mod.lessons.map((lesson) => (
          <li key={lesson.id}>
            <LessonRow
              productId={productId}
              lesson={lesson}
              first={allLessons[0] === lesson.id}
              last={allLessons[allLessons.length - 1] === lesson.id}
              setCourse={setCourse}
              onMove={onMoveLesson}
              setNotice={setNotice}
            />
          </li>
        ))}
      </ol>
      <AddForm
        label={`New lesson in ${mod.title}`}
        button="Add lesson"
        action={api.addLesson}
        arg={(t) => ({ productId, moduleId: mod.id, title: t })}
        onDone={(res) => setCourse((res as { course: VendorCourse }).course)}
      />
    </section>
  );
}

function LessonRow({
  productId,
  lesson,
  first,
  last,
  setCourse,
  onMove,
  setNotice,
}: {
  productId: string;
  lesson: VendorLesson;
  first: boolean;
  last: boolean;
  setCourse: SetCourse;
  onMove: (id: string, dir: Direction) => void;
  setNotice: (n: string | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const remove = useCourseAction(api.deleteLesson);
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-950/60 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="flex-1 text-slate-100">
          {lesson.title}
          <span className="ml-2 text-xs text-slate-400">
            {lesson.video ? 'Video' : 'Text'}
            {lesson.dripDays > 0 ? ` · opens day ${lesson.dripDays}` : ''}
            {lesson.preview ? ' · free preview' : ''}
            {lesson.attachments.length ? ` · ${countLabel(lesson.attachments.length, 'file')}` : ''}
          </span>
        </span>
        <MoveButtons
          id={lesson.id}
          name={`lesson ${lesson.title}`}
          first={first}
          last={last}
          onMove={onMove}
        />
        <Button
          type="button"
          variant="ghost"
          className="px-3 py-1.5"
          aria-expanded={open}
          aria-label={`${open ? 'Close' : 'Edit'} lesson ${lesson.title}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close' : 'Edit'}
        </Button>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete lesson ${lesson.title}`}
          question={`Delete “${lesson.title}”? Buyers stop seeing it at once.${lesson.learners ? ` ${lesson.learners} buyers have progress on it; it is kept if you restore the lesson.` : ''}`}
          confirmLabel="Delete lesson"
          busy={remove.busy}
          onConfirm={async () => {
            const res = await remove.run({ productId, lessonId: lesson.id });
            if (res) {
              setCourse(res);
              setNotice(`Deleted “${lesson.title}”. You can restore it under Deleted lessons.`);
            }
          }}
        />
      </div>
      {remove.error && <Alert>{remove.error.error}</Alert>}
      {open && <LessonEditor productId={productId} lesson={lesson} setCourse={setCourse} />}
    </div>
  );
}

const errorOf = (e: ApiError | null, field: string) => e?.fields?.[field] ?? null;

function LessonEditor({
  productId,
  lesson,
  setCourse,
}: {
  productId: string;
  lesson: VendorLesson;
  setCourse: SetCourse;
}) {
  const save = useCourseAction(api.updateLesson);
  const video = useCourseAction(api.uploadVideo);
  const attach = useCourseAction(api.uploadAttachment);
  const detach = useCourseAction(api.deleteAttachment);
  const removeVideo = useCourseAction(api.updateLesson);
  const [title, setTitle] = useState(lesson.title);
  const [body, setBody] = useState(lesson.body);
  const [drip, setDrip] = useState(String(lesson.dripDays));
  const [preview, setPreview] = useState(lesson.preview);
  const [duration, setDuration] = useState(lesson.durationSeconds?.toString() ?? '');
  const [showPreview, setShowPreview] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const bodyId = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: Record<string, string> = {};
    const t = titleProblem(title);
    if (t) next.title = t;
    const d = dripProblem(drip);
    if (d) next.dripDays = d;
    if (body.length > LESSON_BODY_MAX)
      next.body = `Keep the lesson notes to ${LESSON_BODY_MAX} characters.`;
    if (duration.trim() && !/^\d+$/.test(duration.trim()))
      next.durationSeconds = 'The length is a whole number of seconds.';
    setProblems(next);
    setSaved(false);
    if (Object.keys(next).length) return;
    const res = await save.run({
      productId,
      lessonId: lesson.id,
      patch: {
        title: title.trim(),
        body,
        preview,
        durationSeconds: duration.trim() ? Number(duration) : null,
        ...(Number(drip) !== lesson.dripDays ? { dripDays: Number(drip) } : {}),
      },
    });
    if (res) {
      setCourse(res);
      setSaved(true);
    }
  }

  return (
    <div className="mt-3 flex flex-col gap-4 border-t border-ink-700 pt-3">
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <Field
          label="Lesson title"
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={problems.title ?? errorOf(save.error, 'title')}
        />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between">
            <label htmlFor={bodyId} className="text-sm font-medium text-slate-200">
              Lesson notes (Markdown)
            </label>
            <button
              type="button"
              className="text-sm text-brand-300 underline"
              aria-pressed={showPreview}
              onClick={() => setShowPreview(!showPreview)}
            >
              {showPreview ? 'Edit' : 'Preview'}
            </button>
          </div>
          {showPreview ? (
            <div className="rounded-lg border border-ink-600 p-3">
              <MarkdownPreview source={body || '_Nothing yet._'} />
            </div>
          ) : (
            <textarea
              id={bodyId}
              value={body}
              rows={8}
              onChange={(e) => setBody(e.currentTarget.value)}
              aria-invalid={problems.body || errorOf(save.error, 'body') ? true : undefined}
              className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 font-mono text-sm text-slate-100 focus:border-brand-400"
            />
          )}
          {(problems.body ?? errorOf(save.error, 'body')) && (
            <p className="text-sm text-rose-400">{problems.body ?? errorOf(save.error, 'body')}</p>
          )}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Drip: opens after (days)"
            inputMode="numeric"
            value={drip}
            onChange={(e) => setDrip(e.currentTarget.value)}
            hint="0 opens at purchase. Lessons already open for a buyer stay open."
            error={problems.dripDays ?? errorOf(save.error, 'dripDays')}
          />
          <Field
            label="Length (seconds, optional)"
            inputMode="numeric"
            value={duration}
            onChange={(e) => setDuration(e.currentTarget.value)}
            error={problems.durationSeconds ?? errorOf(save.error, 'durationSeconds')}
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input
            type="checkbox"
            checked={preview}
            onChange={(e) => setPreview(e.currentTarget.checked)}
          />
          Free preview (anyone can watch it before buying)
        </label>
        <FormError error={save.error} />
        {saved && <Alert tone="success">Lesson saved.</Alert>}
        <div>
          <Button type="submit" loading={save.busy}>
            Save lesson
          </Button>
        </div>
      </form>

      <div className="flex flex-col gap-2">
        <h3 className="font-semibold text-white">Video</h3>
        {lesson.video ? (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-300">
            <span className="flex-1">
              {lesson.video.name ?? 'Video'}
              {lesson.video.sizeBytes ? ` · ${formatBytes(lesson.video.sizeBytes)}` : ''}
            </span>
            <ConfirmButton
              label="Remove video"
              question="Remove this lesson’s video? Buyers stop seeing it at once."
              confirmLabel="Remove video"
              busy={removeVideo.busy}
              onConfirm={async () => {
                const res = await removeVideo.run({
                  productId,
                  lessonId: lesson.id,
                  patch: { removeVideo: true },
                });
                if (res) setCourse(res);
              }}
            />
          </div>
        ) : (
          <p className="text-sm text-slate-400">No video: this is a text lesson.</p>
        )}
        <UploadControl
          label={lesson.video ? 'Replace the video' : 'Upload a video'}
          accept={COURSE_VIDEO_ACCEPT}
          hint="MP4 or WebM, up to 200 MB. Served as uploaded."
          check={(f) => fileProblem(f, 'video')}
          error={video.error}
          upload={async (run) => {
            const res = await video.run({ productId, lessonId: lesson.id, ...run });
            if (res) setCourse(res);
            return res !== null;
          }}
        />
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="font-semibold text-white">Attachments</h3>
        {lesson.attachments.length === 0 && (
          <p className="text-sm text-slate-400">No downloads yet.</p>
        )}
        <ul className="flex flex-col gap-1">
          {lesson.attachments.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-300">
              <span className="flex-1">
                {f.name} · {formatBytes(f.sizeBytes)}
              </span>
              <ConfirmButton
                label="Remove"
                ariaLabel={`Remove ${f.name}`}
                question={`Remove ${f.name}? Buyers can no longer download it.`}
                confirmLabel="Remove file"
                busy={detach.busy}
                onConfirm={async () => {
                  const res = await detach.run({ productId, lessonId: lesson.id, fileId: f.id });
                  if (res) setCourse(res);
                }}
              />
            </li>
          ))}
        </ul>
        {detach.error && <Alert>{detach.error.error}</Alert>}
        <UploadControl
          label="Add a download"
          accept={COURSE_ATTACHMENT_ACCEPT}
          hint="PDF, ZIP, CSV, text or an image, up to 25 MB."
          check={(f) => fileProblem(f, 'attachment')}
          error={attach.error}
          upload={async (run) => {
            const res = await attach.run({ productId, lessonId: lesson.id, ...run });
            if (res) setCourse(res);
            return res !== null;
          }}
        />
      </div>
    </div>
  );
}

function DeletedLessons({
  productId,
  course,
  setCourse,
}: {
  productId: string;
  course: VendorCourse;
  setCourse: SetCourse;
}) {
  const restore = useCourseAction(api.restoreLesson);
  return (
    <section className="flex flex-col gap-2 rounded-xl border border-ink-700 p-4">
      <h2 className="text-lg font-semibold text-white">Deleted lessons</h2>
      <p className="text-sm text-slate-400">
        Restoring puts a lesson back at the end of its module, with buyers’ progress as it was.
      </p>
      {restore.error && <Alert>{restore.error.error}</Alert>}
      <ul className="flex flex-col gap-1">
        {course.deleted.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-300">
            <span className="flex-1">
              {d.title} <span className="text-slate-400">({d.moduleTitle})</span>
            </span>
            <Button
              type="button"
              variant="ghost"
              className="px-3 py-1.5"
              aria-label={`Restore ${d.title}`}
              loading={restore.busy}
              onClick={async () => {
                const res = await restore.run({ productId, lessonId: d.id });
                if (res) setCourse(res);
              }}
            >
              Restore
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
