import { screenEndpoints } from '@tradeshelf/contract/client';
import type {
  Course,
  CourseProgressSummary,
  CourseSummary,
  LessonProgress,
} from '@tradeshelf/contract';
import { requestThunk } from '../../lib/thunk.ts';

export interface CoursePage {
  courses: CourseSummary[];
  nextCursor: string | null;
}

/** One page of the buyer's courses; with a cursor it is the next page. */
export const fetchCourseList = requestThunk<{ cursor?: string } | undefined, CoursePage>(
  'course/list',
  (arg, { api }) =>
    api.call(screenEndpoints.userCourses, {
      query: { limit: 20, ...(arg?.cursor ? { cursor: arg.cursor } : {}) },
    }),
);

/** A course by its id or its product id (outline and previews for a visitor). */
export const fetchCourseDetails = requestThunk<string, Course>(
  'course/details',
  async (id, { api }) => (await api.call(screenEndpoints.courseDetails, { params: { id } })).course,
);

export interface ProgressArg {
  courseId: string;
  lessonId: string;
  positionSeconds: number;
  completed?: boolean;
  reset?: boolean;
}
export interface ProgressSaved {
  lessonId: string;
  progress: LessonProgress;
  course: CourseProgressSummary;
}

/** Records the buyer's place in a lesson and, optionally, its completion. */
export const saveLessonProgress = requestThunk<ProgressArg, ProgressSaved>(
  'course/progress',
  ({ courseId, lessonId, ...body }, { api }) =>
    api.call(screenEndpoints.lessonProgress, {
      params: { id: courseId, lessonId },
      body: {
        positionSeconds: Math.max(0, Math.floor(body.positionSeconds)),
        ...(body.completed !== undefined ? { completed: body.completed } : {}),
        ...(body.reset !== undefined ? { reset: body.reset } : {}),
      },
    }),
);

export interface VideoSource {
  url: string;
  expiresAt: string;
  contentType: string;
  lessonId: string;
  captions: Array<{ language: string; label: string; url: string }>;
}

/** A short-lived signed URL of a lesson's video and its caption tracks. */
export const fetchVideoUrl = requestThunk<string, VideoSource>('course/video', (id, { api }) =>
  api.call(screenEndpoints.videoUrl, { query: { id } }),
);

export interface AttachmentLink {
  url: string;
  name: string;
}

/** A short-lived signed URL that downloads an attachment under its name. */
export const fetchAttachmentUrl = requestThunk<string, AttachmentLink>(
  'course/attachment',
  (id, { api }) => api.call(screenEndpoints.attachmentUrl, { query: { id } }),
);
