import { useEffect } from 'react';
import { Link } from 'react-router';
import { categoryOfKind, courseMessages } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { fetchCourseList } from '../features/courses/api.ts';
import { CourseCard } from '../features/courses/components.tsx';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [...pageMeta('My courses'), { name: 'robots', content: 'noindex' }];

function CoursesPage() {
  const dispatch = useAppDispatch();
  const list = useAppSelector((s) => s.course.list);
  useEffect(() => {
    void dispatch(fetchCourseList());
  }, [dispatch]);
  const data = list.data;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">My courses</h1>
      {list.status === 'failure' && list.error && (
        <Alert>
          {list.error.error}{' '}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => void dispatch(fetchCourseList())}
          >
            Try again
          </button>
        </Alert>
      )}
      {!data && list.status !== 'failure' && (
        <div aria-busy="true" className="flex animate-pulse flex-col gap-3">
          <span className="sr-only">Loading your courses…</span>
          <div className="h-28 rounded-xl bg-ink-800" />
          <div className="h-28 rounded-xl bg-ink-800" />
        </div>
      )}
      {data && data.courses.length === 0 && (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-ink-700 bg-ink-900 px-6 py-12 text-center">
          <p className="text-lg font-semibold text-white">{courseMessages.noCourses}</p>
          <Link
            to={`/search?category=${categoryOfKind.course}`}
            className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
          >
            Browse courses
          </Link>
        </div>
      )}
      {data && data.courses.length > 0 && (
        <ul aria-label="Courses" className="flex flex-col gap-3">
          {data.courses.map((c) => (
            <li key={c.id}>
              <CourseCard course={c} />
            </li>
          ))}
        </ul>
      )}
      {data?.nextCursor && (
        <Button
          type="button"
          variant="ghost"
          className="self-center"
          loading={list.status === 'loading'}
          onClick={() => void dispatch(fetchCourseList({ cursor: data.nextCursor! }))}
        >
          Load more
        </Button>
      )}
    </div>
  );
}

export default function Courses() {
  return (
    <RequireAuth>
      <CoursesPage />
    </RequireAuth>
  );
}
