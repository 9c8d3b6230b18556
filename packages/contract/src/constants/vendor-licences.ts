/**
 * The vendor's licence policy for app products (issue 19, ADR 044): limits, build types and
 * messages. Plain values, no zod (ADR 012).
 */

export const LICENCE_MAX_ACTIVATIONS_MIN = 1;
/** The database allows 1 to 100 (`licence_products_max_activations_check`). */
export const LICENCE_MAX_ACTIVATIONS_LIMIT = 100;

/** An app build: up to 100 MB. */
export const LICENCE_BUILD_MAX_BYTES = 100 * 1024 * 1024;
/** `1.2.0`, `2024.11`, `3.0.0-beta.2`. */
export const BUILD_VERSION_MAX = 32;
export const buildVersionPattern = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,31}$/;

/** Build types (recognised by their bytes): archives and Windows programs and installers. */
export const licenceBuildTypes = [
  'application/zip',
  'application/gzip',
  'application/x-msdownload',
  'application/x-msi',
] as const;
export type LicenceBuildType = (typeof licenceBuildTypes)[number];
export const LICENCE_BUILD_ACCEPT = '.zip,.gz,.tgz,.exe,.msi,application/zip,application/gzip';

export const vendorLicenceMessages = {
  vendorsOnly: 'Only vendors can set licence terms. Set up your storefront first.',
  appNotFound: 'We could not find that app among your products.',
  maxActivations: `Allow from ${LICENCE_MAX_ACTIVATIONS_MIN} to ${LICENCE_MAX_ACTIVATIONS_LIMIT} activations per licence.`,
  version: 'Give the build a version such as 1.2.0 (letters, digits, dots, + and -).',
  buildType: 'Upload the build as a ZIP or tar.gz archive, or a Windows program or installer.',
  buildTooLarge: 'Builds can be up to 100 MB.',
  saved: 'Licence terms saved. They apply from the next activation.',
  rotated:
    'New signing key made. Licences issued so far keep validating with the old key; new licences use the new one.',
} as const;
