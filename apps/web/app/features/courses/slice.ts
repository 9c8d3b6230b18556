import { createSlice } from '@reduxjs/toolkit';
import type { Course } from '@tradeshelf/contract';
import { sessionEnded } from '../auth/index.ts';
import { hydrate, mergeState } from '../../lib/hydrate.ts';
import { fail, idle, start, succeed, type RequestState } from '../../lib/request-state.ts';
import {
  fetchAttachmentUrl,
  fetchCourseDetails,
  fetchCourseList,
  fetchVideoUrl,
  saveLessonProgress,
  type AttachmentLink,
  type CoursePage,
  type ProgressSaved,
  type VideoSource,
} from './api.ts';
import { lazySlice } from '../../lib/lazy-slices.ts';

/** The course group (docs/product.md#request-groups). */
export interface CourseState {
  list: RequestState<CoursePage>;
  details: RequestState<Course>;
  progress: RequestState<ProgressSaved>;
  video: RequestState<VideoSource>;
  attachment: RequestState<AttachmentLink>;
}

export const initialCourseState: CourseState = {
  list: idle<CoursePage>(),
  details: idle<Course>(),
  progress: idle<ProgressSaved>(),
  video: idle<VideoSource>(),
  attachment: idle<AttachmentLink>(),
};

/** A saved position or completion updates the lesson, its module and the course in place. */
export function applyProgress(course: Course, saved: ProgressSaved) {
  for (const m of course.modules) {
    const lesson = m.lessons.find((l) => l.id === saved.lessonId);
    if (!lesson) continue;
    lesson.progress = saved.progress;
    const completed = m.lessons.filter((l) => l.progress?.completed).length;
    m.progress = {
      completed,
      total: m.lessons.length,
      percent: m.lessons.length ? Math.round((completed / m.lessons.length) * 100) : 0,
    };
  }
  course.progress = saved.course;
  if (course.resume?.lessonId === saved.lessonId)
    course.resume.positionSeconds = saved.progress.positionSeconds;
}

export const courseSlice = createSlice({
  name: 'course',
  initialState: initialCourseState,
  reducers: {},
  extraReducers: (b) => {
    b.addCase(fetchCourseList.pending, (s) => start(s.list))
      .addCase(fetchCourseList.fulfilled, (s, a) => {
        const more = Boolean(a.meta.arg?.cursor) && s.list.data !== null;
        if (!more) return succeed(s.list, a.payload);
        const seen = new Set(s.list.data!.courses.map((c) => c.id));
        succeed(s.list, {
          courses: [...s.list.data!.courses, ...a.payload.courses.filter((c) => !seen.has(c.id))],
          nextCursor: a.payload.nextCursor,
        });
      })
      .addCase(fetchCourseList.rejected, (s, a) => fail(s.list, a.payload))
      .addCase(fetchCourseDetails.pending, (s, a) => {
        const d = s.details.data;
        if (d && d.id !== a.meta.arg && d.product.id !== a.meta.arg) s.details.data = null;
        start(s.details);
      })
      .addCase(fetchCourseDetails.fulfilled, (s, a) => succeed(s.details, a.payload))
      .addCase(fetchCourseDetails.rejected, (s, a) => fail(s.details, a.payload))
      .addCase(saveLessonProgress.pending, (s) => start(s.progress))
      .addCase(saveLessonProgress.fulfilled, (s, a) => {
        succeed(s.progress, a.payload);
        if (s.details.data && s.details.data.id === a.meta.arg.courseId)
          applyProgress(s.details.data, a.payload);
      })
      .addCase(saveLessonProgress.rejected, (s, a) => fail(s.progress, a.payload))
      .addCase(fetchVideoUrl.pending, (s) => {
        s.video.data = null;
        start(s.video);
      })
      .addCase(fetchVideoUrl.fulfilled, (s, a) => succeed(s.video, a.payload))
      .addCase(fetchVideoUrl.rejected, (s, a) => fail(s.video, a.payload))
      .addCase(fetchAttachmentUrl.pending, (s) => start(s.attachment))
      .addCase(fetchAttachmentUrl.fulfilled, (s, a) => succeed(s.attachment, a.payload))
      .addCase(fetchAttachmentUrl.rejected, (s, a) => fail(s.attachment, a.payload))
      // What a buyer watched is theirs: nothing of it outlives the session.
      .addCase(sessionEnded, () => initialCourseState)
      .addCase(hydrate, (s, a) => mergeState(s, a.payload.course));
  },
});
// Loaded with the feature's pages, not with every page (ADR 038).
lazySlice(courseSlice);
