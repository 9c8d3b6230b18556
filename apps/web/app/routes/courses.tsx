import { useEffect } from 'react';
import { categoryOfKind, courseMessages } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { LoadMore } from '../components/list-pager.tsx';
import { fetchCourseList } from '../features/courses/api.ts';
import { CourseCard } from '../features/courses/components.tsx';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Screen } from '../components/screen.tsx';
import { NothingYet } from '../components/nothing-yet.tsx';

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
          <NothingYet
            title={courseMessages.noCourses}
            to={`/search?category=${categoryOfKind.course}`}
            action="Browse courses"
          />
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
