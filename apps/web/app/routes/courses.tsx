import { useEffect } from 'react';
import { Link } from 'react-router';
import { categoryOfKind, courseMessages } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { LoadMore } from '../components/list-pager.tsx';
import { fetchCourseList } from '../features/courses/api.ts';
import { CourseCard } from '../features/courses/components.tsx';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Screen } from '../components/screen.tsx';

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
      <Screen
        read={list}
        onRetry={() => void dispatch(fetchCourseList())}
        loading="Loading your courses…"
        rows={2}
        isEmpty={(d) => d.courses.length === 0}
        empty={
          <div className="flex flex-col items-center gap-3 rounded-2xl border border-ink-700 bg-ink-900 px-6 py-12 text-center">
            <p className="text-lg font-semibold text-white">{courseMessages.noCourses}</p>
            <Link
              to={`/search?category=${categoryOfKind.course}`}
              className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
            >
              Browse courses
            </Link>
          </div>
        }
      >
        {(d) => (
          <ul aria-label="Courses" className="flex flex-col gap-3">
            {d.courses.map((c) => (
              <li key={c.id}>
                <CourseCard course={c} />
              </li>
            ))}
          </ul>
        )}
      </Screen>
      <LoadMore
        noun="courses"
        list={{
          nextCursor: data?.nextCursor ?? null,
          loadMore: async () => {
            if (data?.nextCursor) await dispatch(fetchCourseList({ cursor: data.nextCursor }));
          },
          loadingMore: list.status === 'loading',
          moreError: null,
        }}
      />
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
