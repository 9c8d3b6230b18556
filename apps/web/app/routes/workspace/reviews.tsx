import { VendorReviews } from '../../features/workspace/reviews/reviews.tsx';

export default VendorReviews;
