import type { VendorPageProps } from '../../features/vendor/nav.ts';
import {
  LoadedProductEditor,
  VendorProductEditor,
} from '../../features/vendor/products/editor.tsx';

// Routed twice (routes/vendor/layout.tsx): `products/new` and `products/:id`.

export default function VendorProductPage({ params }: VendorPageProps) {
  const { id } = params;
  return id ? <LoadedProductEditor id={id} /> : <VendorProductEditor product={null} />;
}
