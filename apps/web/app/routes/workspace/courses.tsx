import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button } from '../../components/ui.tsx';
import { fetchVendorCourses, type CoursesPage } from '../../features/workspace/courses/api.ts';
import { useRead } from '../../features/workspace/request.ts';

export default function VendorCourses() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const list = useRead<{ cursor?: string }, CoursesPage>(
    fetchVendorCourses,
    cursor ? { cursor } : {},
  );
  const courses = list.data?.courses ?? [];
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
      {list.error && <Alert>{list.error.error}</Alert>}
      {list.status === 'loading' && !list.data && <p className="text-slate-400">Loading…</p>}
      {list.status === 'success' && courses.length === 0 && (
        <Alert tone="info">You have no course products yet.</Alert>
      )}
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
      <div className="flex gap-2">
        {cursors.length > 0 && (
          <Button type="button" variant="ghost" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous
          </Button>
        )}
        {list.data?.nextCursor && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => setCursors([...cursors, list.data!.nextCursor!])}
          >
            Next
          </Button>
        )}
      </div>
    </div>
  );
}
