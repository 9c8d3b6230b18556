import { useEffect } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../components/ui.tsx';
import { fetchCourseDetails } from '../features/courses/api.ts';
import {
  BuyBox,
  CourseOutline,
  LessonView,
  ProgressBar,
  startLesson,
} from '../features/courses/components.tsx';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { countLabel } from '../lib/format.ts';
import { BackLink, Loading } from '../components/screen.tsx';

export const meta = () => [...pageMeta('Course'), { name: 'robots', content: 'noindex' }];

/**
 * A course: the open lesson (the one in the address, else the one to resume) with its modules and
 * lessons beside it. Visitors without the course see the outline, the free preview and a way to buy it.
 */
export function CoursePage() {
  const { id = '', lessonId } = useParams();
  const dispatch = useAppDispatch();
  const checked = useAppSelector((s) => s.auth.sessionChecked);
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const details = useAppSelector((s) => s.course.details);
  useEffect(() => {
    if (checked) void dispatch(fetchCourseDetails(id));
  }, [dispatch, id, checked, isLoggedIn]);

  const course =
    details.data && (details.data.id === id || details.data.product.id === id)
      ? details.data
      : null;
  if (details.status === 'failure' && details.error && !course)
    return (
      <div className="mx-auto max-w-3xl">
        <Alert>{details.error.error}</Alert>
      </div>
    );
  if (!course)
    return (
      <div className="mx-auto max-w-5xl">
        <Loading label="Loading the course…" size="page" />
      </div>
    );

  const lessons = course.modules.flatMap((m) => m.lessons);
  const lesson = (lessonId && lessons.find((l) => l.id === lessonId)) || startLesson(course);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        {isLoggedIn && <BackLink to="/courses">My courses</BackLink>}
        <h1 className="text-2xl font-bold text-white">{course.title}</h1>
        <p className="text-sm text-slate-400">
          {course.product.vendor.displayName} · {countLabel(course.modules.length, 'module')} ·{' '}
          {countLabel(course.lessonCount, 'lesson')}
        </p>
        {course.enrolled && <ProgressBar summary={course.progress} label="Course progress" />}
      </header>
      {!course.enrolled && <BuyBox course={course} />}
      {/* The lesson first, so a phone shows the video on its first screen; the outline follows it,
          beside it on a wide screen (the same order for the eye and the keyboard). */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          {lesson ? (
            <LessonView key={lesson.id} course={course} lesson={lesson} />
          ) : (
            <p className="text-slate-400">This course has no lessons yet.</p>
          )}
        </div>
        <CourseOutline course={course} current={lesson?.id ?? null} />
      </div>
    </div>
  );
}

export default function Course() {
  return <CoursePage />;
}
