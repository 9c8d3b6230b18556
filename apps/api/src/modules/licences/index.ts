// The licences module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { licenceKeyOf, licencesOf, licenceOf } from './queries.ts';
export { vendorPublicKey } from './public-key.ts';
export { licencePages } from './account-data.ts';
