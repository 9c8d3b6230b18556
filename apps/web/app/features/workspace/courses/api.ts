import type {
  CourseOrderBody,
  LessonPatchBody,
  VendorCourse,
  VendorCourseSummary,
} from '@tradeshelf/contract';
import { vendorEndpoints as endpoints } from '@tradeshelf/contract/client';
import { requestThunk } from '../../../lib/thunk.ts';
import { uploadTo, type FileUpload } from '../upload.ts';

// One thunk per call of the course builder (ADR 039: screen state, not a slice).

export interface CoursesPage {
  courses: VendorCourseSummary[];
  nextCursor: string | null;
}

export const fetchVendorCourses = requestThunk<{ cursor?: string }, CoursesPage>(
  'vendorCourses/list',
  (arg, { api }) =>
    api.call(endpoints.vendorCourses, {
      query: { limit: 20, ...(arg.cursor ? { cursor: arg.cursor } : {}) },
    }),
);

export const fetchVendorCourse = requestThunk<string, VendorCourse>(
  'vendorCourses/course',
  async (productId, { api }) =>
    (await api.call(endpoints.vendorCourse, { params: { productId } })).course,
);

export const addModule = requestThunk<{ productId: string; title: string }, VendorCourse>(
  'vendorCourses/addModule',
  async ({ productId, title }, { api }) =>
    (await api.call(endpoints.addCourseModule, { params: { productId }, body: { title } })).course,
);

export const renameModule = requestThunk<
  { productId: string; moduleId: string; title: string },
  VendorCourse
>(
  'vendorCourses/renameModule',
  async ({ productId, moduleId, title }, { api }) =>
    (
      await api.call(endpoints.renameCourseModule, {
        params: { productId, moduleId },
        body: { title },
      })
    ).course,
);

export const deleteModule = requestThunk<{ productId: string; moduleId: string }, VendorCourse>(
  'vendorCourses/deleteModule',
  async (params, { api }) => (await api.call(endpoints.deleteCourseModule, { params })).course,
);

export const reorderCourse = requestThunk<
  { productId: string; order: CourseOrderBody },
  VendorCourse
>(
  'vendorCourses/reorder',
  async ({ productId, order }, { api }) =>
    (await api.call(endpoints.reorderCourse, { params: { productId }, body: order })).course,
);

export const addLesson = requestThunk<
  { productId: string; moduleId: string; title: string },
  { course: VendorCourse; lessonId: string }
>('vendorCourses/addLesson', ({ productId, moduleId, title }, { api }) =>
  api.call(endpoints.addCourseLesson, { params: { productId }, body: { moduleId, title } }),
);

export const updateLesson = requestThunk<
  { productId: string; lessonId: string; patch: LessonPatchBody },
  VendorCourse
>(
  'vendorCourses/updateLesson',
  async ({ productId, lessonId, patch }, { api }) =>
    (
      await api.call(endpoints.updateCourseLesson, {
        params: { productId, lessonId },
        body: patch,
      })
    ).course,
);

export const deleteLesson = requestThunk<{ productId: string; lessonId: string }, VendorCourse>(
  'vendorCourses/deleteLesson',
  async (params, { api }) => (await api.call(endpoints.deleteCourseLesson, { params })).course,
);

export const restoreLesson = requestThunk<{ productId: string; lessonId: string }, VendorCourse>(
  'vendorCourses/restoreLesson',
  async (params, { api }) => (await api.call(endpoints.restoreCourseLesson, { params })).course,
);

export const deleteAttachment = requestThunk<
  { productId: string; lessonId: string; fileId: string },
  VendorCourse
>(
  'vendorCourses/deleteAttachment',
  async (params, { api }) => (await api.call(endpoints.deleteLessonAttachment, { params })).course,
);

type UploadArg = { productId: string; lessonId: string } & FileUpload;

export const uploadVideo = requestThunk<UploadArg, VendorCourse>(
  'vendorCourses/uploadVideo',
  async ({ productId, lessonId, ...upload }, extra) =>
    (
      await uploadTo<{ course: VendorCourse }>(
        extra,
        endpoints.uploadLessonVideo,
        { productId, lessonId },
        upload,
      )
    ).course,
);

export const uploadAttachment = requestThunk<UploadArg, VendorCourse>(
  'vendorCourses/uploadAttachment',
  async ({ productId, lessonId, ...upload }, extra) =>
    (
      await uploadTo<{ course: VendorCourse }>(
        extra,
        endpoints.uploadLessonAttachment,
        { productId, lessonId },
        upload,
      )
    ).course,
);
