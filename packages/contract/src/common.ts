import { z } from 'zod';
import { hasUnreadableCharacters, UNREADABLE_TEXT } from './rules/text.ts';
import { isStorableTimestamp, TIMESTAMP_MESSAGE } from './rules/timestamp.ts';

export const idSchema = z.string().min(1).max(64);
export const isoDateTime = z.string().meta({ format: 'date-time' });

/**
 * A time a request gives: ISO 8601 with `Z` (or, with `offset`, `±HH:MM`), and only what
 * PostgreSQL's timestamptz stores as written and the product means (`isStorableTimestamp`: years
 * 1970–9999, offsets within ±15:59). ADR 051.
 */
export function timestampInput(o: { offset?: boolean; error?: string } = {}) {
  const error = o.error ?? TIMESTAMP_MESSAGE;
  return z.iso
    .datetime({ offset: o.offset ?? false, error })
    .refine(isStorableTimestamp, { error, abort: true });
}
export const moneySchema = z
  .object({ amount: z.number().int(), currency: z.string().length(3) })
  .meta({ id: 'Money' });
export type Money = z.infer<typeof moneySchema>;

/**
 * A stored image: `${base}/${w}.avif` and `${base}/${w}.webp` for each of `widths`, and
 * `${base}/${width}.jpg` (the largest, for share cards and old clients). ADR 026.
 */
export const responsiveImage = z
  .object({
    base: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    widths: z.array(z.number().int()),
  })
  .meta({ id: 'ResponsiveImage' });
export type ResponsiveImage = z.infer<typeof responsiveImage>;

/** A page's query fields: how many rows (up to `max`), and the cursor the last page ended at. */
export const pageFields = (max: number, byDefault = 20) => ({
  limit: z.coerce.number().int().min(1).max(max).default(byDefault),
  cursor: z.string().max(200).optional(),
});

export const pageQuery = z.object(pageFields(100));

export const messageResponse = z.object({ message: z.string() });

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'E-mail is too long.')
  .pipe(z.email('Enter a valid e-mail address.'));

/** A typed text field: readable characters first, then trimmed and measured. */
export function textField(o: {
  required: string;
  min?: number;
  tooShort?: string;
  max: number;
  tooLong: string;
  multiline?: boolean;
}) {
  return z
    .string({ error: o.required })
    .refine((v) => !hasUnreadableCharacters(v, o.multiline), {
      error: UNREADABLE_TEXT,
      abort: true,
    })
    .trim()
    .min(o.min ?? 1, o.tooShort ?? o.required)
    .max(o.max, o.tooLong);
}
