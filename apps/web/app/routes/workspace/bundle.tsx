import {
  LoadedBundleEditor,
  VendorBundleEditor,
} from '../../features/workspace/bundles/editor.tsx';
import type { VendorPageProps } from '../../features/workspace/nav.ts';

// Routed twice (routes/workspace/layout.tsx): `bundles/new` and `bundles/:id`.

export default function VendorBundlePage({ params }: VendorPageProps) {
  const { id } = params;
  return id ? <LoadedBundleEditor id={id} /> : <VendorBundleEditor bundle={null} />;
}
