import type { VendorPageProps } from '../../features/workspace/nav.ts';
import {
  LoadedProductEditor,
  VendorProductEditor,
} from '../../features/workspace/products/editor.tsx';

// Routed twice (routes/workspace/layout.tsx): `products/new` and `products/:id`.

export default function VendorProductPage({ params }: VendorPageProps) {
  const { id } = params;
  return id ? <LoadedProductEditor id={id} /> : <VendorProductEditor product={null} />;
}
