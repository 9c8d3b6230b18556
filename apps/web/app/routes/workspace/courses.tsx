import { Link } from 'react-router';
import { fetchVendorCourses } from '../../features/workspace/courses/api.ts';
import { ProductCards } from '../../features/workspace/screen-kit.tsx';

export default function VendorCourses() {
  return (
    <ProductCards
      title="Courses"
      intro={
        <>
          Build the modules and lessons of your course products. To add a course, create a product
          of kind course under{' '}
          <Link to="/vendor/products/new" className="text-brand-300 underline">
            Products
          </Link>
          .
        </>
      }
      read={fetchVendorCourses}
      items={(page) => page.courses}
      noun="course"
      to={(c) => `/vendor/courses/${c.productId}`}
      name={(c) => (
        <>
          {c.title}
          {!c.isActive && (
            <span className="ml-2 text-xs font-normal text-amber-300">not on sale</span>
          )}
        </>
      )}
      facts={(c) =>
        `${c.moduleCount} modules · ${c.lessonCount} lessons · ${c.videoCount} videos · ${c.learners} learners`
      }
    />
  );
}
