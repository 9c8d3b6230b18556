import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../components/list-pager.tsx';
import { Screen } from '../../components/screen.tsx';
import { Alert } from '../../components/ui.tsx';
import { fetchVendorCourses, type CoursesPage } from '../../features/workspace/courses/api.ts';
import { useRead } from '../../features/workspace/request.ts';

export default function VendorCourses() {
  const pages = useCursorPages();
  const list = useRead<{ cursor?: string }, CoursesPage>(
    fetchVendorCourses,
    pages.cursor ? { cursor: pages.cursor } : {},
  );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Courses</h1>
        <p className="mt-1 text-sm text-slate-400">
          Build the modules and lessons of your course products. To add a course, create a product
          of kind course under{' '}
          <Link to="/vendor/products/new" className="text-brand-300 underline">
            Products
          </Link>
          .
        </p>
      </div>
      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your courses…"
        rows={3}
        size="row"
        isEmpty={(page) => page.courses.length === 0 && !pages.cursor}
        empty={<Alert tone="info">You have no course products yet.</Alert>}
      >
        {({ courses }) => (
          <ul className="grid gap-3">
            {courses.map((c) => (
              <li key={c.productId}>
                <Link
                  to={`/vendor/courses/${c.productId}`}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4 hover:border-brand-500"
                >
                  <span className="font-semibold text-white">
                    {c.title}
                    {!c.isActive && (
                      <span className="ml-2 text-xs font-normal text-amber-300">not on sale</span>
                    )}
                  </span>
                  <span className="text-sm text-slate-400">
                    {c.moduleCount} modules · {c.lessonCount} lessons · {c.videoCount} videos ·{' '}
                    {c.learners} learners
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={list.status === 'loading'} />
    </div>
  );
}
