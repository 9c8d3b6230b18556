import { CouponsPage } from '../../features/workspace/coupons/coupons-page.tsx';

export default CouponsPage;
