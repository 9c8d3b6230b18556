import { bindingRules } from '@tradeshelf/contract/client';
import { fetchLicenceApps } from '../../features/workspace/licences/api.ts';
import { ProductCards } from '../../features/workspace/screen-kit.tsx';

export default function VendorLicences() {
  return (
    <ProductCards
      title="Licences"
      intro="Terms, signing key and builds of your apps. Each purchase of an app issues a licence key."
      read={fetchLicenceApps}
      items={(page) => page.apps}
      noun="app"
      to={(a) => `/vendor/licences/${a.productId}`}
      name={(a) => a.title}
      facts={(a) =>
        `${a.maxActivations} activations · ${a.binding ? bindingRules[a.binding].label : 'any preset'} · ${a.counts.issued} issued · ${a.counts.active} active · ${a.build ? `build ${a.build.version}` : 'no build'}`
      }
    />
  );
}
