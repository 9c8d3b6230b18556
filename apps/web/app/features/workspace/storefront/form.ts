import {
  hasUnreadableCharacters,
  normaliseVendorUrl,
  reservedStorefrontName,
  SOCIAL_LINKS_MAX,
  socialLinkKinds,
  STOREFRONT_BIO_MAX,
  STOREFRONT_NAME_MAX,
  storefrontMessages as m,
  validateSocialLink,
  validateVendorUrl,
  type SocialLinkKind,
} from '@tradeshelf/contract/client';
import type { Storefront, StorefrontBody } from '@tradeshelf/contract';

/** What the storefront form holds: every field as typed. */
export interface StorefrontValues {
  vendorUrl: string;
  displayName: string;
  bio: string;
  socialLinks: Record<SocialLinkKind, string>;
}

/** Field name (as the server names it: `socialLinks.x`) → message. */
export type FieldErrors = Record<string, string>;

export function initialValues(storefront: Storefront | null): StorefrontValues {
  const links = Object.fromEntries(
    socialLinkKinds.map((k) => [k, storefront?.socialLinks[k] ?? '']),
  ) as Record<SocialLinkKind, string>;
  return {
    vendorUrl: storefront?.vendorUrl ?? '',
    displayName: storefront?.displayName ?? '',
    bio: storefront?.bio ?? '',
    socialLinks: links,
  };
}

/**
 * The same rules and messages as the contract's `storefrontBody` (the rule functions it is built
 * from), so the form says what the server would, before sending. Empty when the form is valid.
 */
export function validateStorefront(
  values: StorefrontValues,
  /** The saved address, which may stay even when it is a reserved word (the platform's own). */
  current: string | null = null,
  /** The saved name, which may stay even when it is reserved (ADR 052). */
  currentName: string | null = null,
): FieldErrors {
  const errors: FieldErrors = {};
  const address = normaliseVendorUrl(values.vendorUrl);
  const url = address === current ? null : validateVendorUrl(address);
  if (url) errors.vendorUrl = url;
  const name = values.displayName.trim();
  if (!name) errors.displayName = m.nameRequired;
  else if (name.length > STOREFRONT_NAME_MAX) errors.displayName = m.nameLength;
  else if (hasUnreadableCharacters(name)) errors.displayName = m.unreadable;
  else if (reservedStorefrontName(name, currentName)) errors.displayName = m.nameReserved;
  const bio = values.bio.trim();
  if (bio.length > STOREFRONT_BIO_MAX) errors.bio = m.bioLength;
  else if (hasUnreadableCharacters(bio, true)) errors.bio = m.unreadable;
  const given = socialLinkKinds.filter((k) => values.socialLinks[k].trim());
  if (given.length > SOCIAL_LINKS_MAX) errors.socialLinks = m.tooManyLinks;
  for (const kind of given) {
    const problem = validateSocialLink(kind, values.socialLinks[kind].trim());
    if (problem) errors[`socialLinks.${kind}`] = problem;
  }
  return errors;
}

/** The request body: trimmed, the address normalised, empty links left out. */
export function toBody(values: StorefrontValues): StorefrontBody {
  const socialLinks: Partial<Record<SocialLinkKind, string>> = {};
  for (const kind of socialLinkKinds) {
    const v = values.socialLinks[kind].trim();
    if (v) socialLinks[kind] = v;
  }
  return {
    vendorUrl: normaliseVendorUrl(values.vendorUrl),
    displayName: values.displayName.trim(),
    bio: values.bio.trim(),
    socialLinks,
  };
}
