import { VendorAffiliates } from '../../features/vendor/affiliates/affiliates.tsx';

export default VendorAffiliates;
