// The licences module's public entry (ARCHITECTURE §2): other modules import this file only.
export { licencesOf, licenceOf } from './queries.ts';
export { vendorPublicKey } from './public-key.ts';
export { storedBuildBytes } from './vendor-policy.ts';
