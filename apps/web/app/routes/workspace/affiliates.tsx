import { VendorAffiliates } from '../../features/workspace/affiliates/affiliates.tsx';

export default VendorAffiliates;
