import type { VendorPageProps } from '../../features/vendor/nav.ts';
import { LicencePolicyEditor } from '../../features/vendor/licences/editor.tsx';

export default function VendorLicence({ params }: VendorPageProps) {
  const { productId = '' } = params;
  return <LicencePolicyEditor key={productId} productId={productId} />;
}
