import type { VendorPageProps } from '../../features/workspace/nav.ts';
import { CourseBuilder } from '../../features/workspace/courses/builder.tsx';

export default function VendorCourse({ params }: VendorPageProps) {
  const { productId = '' } = params;
  return <CourseBuilder key={productId} productId={productId} />;
}
