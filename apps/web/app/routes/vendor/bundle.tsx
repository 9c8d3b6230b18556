import { LoadedBundleEditor, VendorBundleEditor } from '../../features/vendor/bundles/editor.tsx';
import type { VendorPageProps } from '../../features/vendor/nav.ts';

// Routed twice (routes/vendor/layout.tsx): `bundles/new` and `bundles/:id`.

export default function VendorBundlePage({ params }: VendorPageProps) {
  const { id } = params;
  return id ? <LoadedBundleEditor id={id} /> : <VendorBundleEditor bundle={null} />;
}
