/**
 * Names that read as the platform speaking (ADR 052): shared by the forms and the server, for
 * storefront names and usernames. A name is compared in a folded form (below), so spacing,
 * punctuation, case, accents and lookalike characters (`0` for `o`, `1` for `l`, Cyrillic `а` for
 * `a`) do not get around it.
 */

/** The platform's name: reserved anywhere in a name ("Tradeshelf Deals", "tradeshe1f_fan"). */
export const RESERVED_BRAND = 'tradeshelf';

/**
 * Words that speak for the platform: a name made only of these (and the brand) is reserved
 * ("Support", "Admin Team", "Official-Staff"), a name that merely contains one is not ("Team
 * Alpha Trading", "Security Scanner Pro").
 */
export const reservedNameWords: readonly string[] = [
  'admin',
  'administrator',
  'billing',
  'customer',
  'help',
  'helpdesk',
  'mod',
  'moderator',
  'noreply',
  'official',
  'payments',
  'root',
  'safety',
  'security',
  'service',
  'staff',
  'support',
  'system',
  'team',
  'the',
  'verified',
];

/** Characters that pass for others, folded to one of them (for comparison only). */
const LOOKALIKES: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  l: 'i',
  '|': 'i',
  '!': 'i',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  '5': 's',
  $: 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  // Cyrillic and Greek letters drawn like Latin ones.
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  ν: 'v',
};

/**
 * A name folded for comparison: compatibility forms and accents removed, lower case, lookalikes
 * folded (`rn` reads as `m`, `vv` as `w`), everything but letters dropped.
 */
export function foldName(name: string): string {
  const chars = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let out = '';
  for (const c of chars) out += LOOKALIKES[c] ?? c;
  return out
    .replace(/[^a-z]/g, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

const brand = foldName(RESERVED_BRAND);
const onlyReservedWords = new RegExp(
  `^(?:${[RESERVED_BRAND, ...reservedNameWords]
    .map(foldName)
    .sort((a, b) => b.length - a.length)
    .join('|')})+$`,
);

/** Whether a display name or username is reserved for the platform. */
export function isReservedName(name: string): boolean {
  const folded = foldName(name);
  if (!folded) return false;
  return folded.includes(brand) || onlyReservedWords.test(folded);
}
