import { CouponsPage } from '../../features/vendor/coupons/coupons-page.tsx';

export default CouponsPage;
