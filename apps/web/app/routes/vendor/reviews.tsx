import { VendorReviews } from '../../features/vendor/reviews/reviews.tsx';

export default VendorReviews;
