import type { VendorPageProps } from '../../features/vendor/nav.ts';
import { CourseBuilder } from '../../features/vendor/courses/builder.tsx';

export default function VendorCourse({ params }: VendorPageProps) {
  const { productId = '' } = params;
  return <CourseBuilder key={productId} productId={productId} />;
}
