import { z } from 'zod';

export * from './constants/errors.ts';

export const apiErrorSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ApiError' });

export type ApiError = z.infer<typeof apiErrorSchema>;
