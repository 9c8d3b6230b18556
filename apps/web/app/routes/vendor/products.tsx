import { VendorProductList } from '../../features/vendor/products/list.tsx';

export default VendorProductList;
