import type { VendorPageProps } from '../../features/workspace/nav.ts';
import { SaleDetail } from '../../features/workspace/sales/sale-detail.tsx';

export default function VendorSale({ params }: VendorPageProps) {
  const { id = '' } = params;
  // A new id is a new screen: nothing of the previous sale's forms carries over.
  return <SaleDetail key={id} id={id} />;
}
