import { VendorBundleList } from '../../features/vendor/bundles/list.tsx';

export default VendorBundleList;
