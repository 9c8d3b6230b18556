import { VendorBundleList } from '../../features/workspace/bundles/list.tsx';

export default VendorBundleList;
