import type { VendorPageProps } from '../../features/workspace/nav.ts';
import { LicencePolicyEditor } from '../../features/workspace/licences/editor.tsx';

export default function VendorLicence({ params }: VendorPageProps) {
  const { productId = '' } = params;
  return <LicencePolicyEditor key={productId} productId={productId} />;
}
