// The catalog module's public entry (ARCHITECTURE §2): other modules import this file only.
export { missingPrerequisites, vendorContact } from './service.ts';
export { ownsItem } from './ownership.ts';
