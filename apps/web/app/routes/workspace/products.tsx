import { VendorProductList } from '../../features/workspace/products/list.tsx';

export default VendorProductList;
