import { z } from 'zod';
import { isoDateTime, responsiveImage } from './common.ts';
import { defineRoute } from './route.ts';
import { validateUsername } from './rules/username.ts';

export * from './constants/users.ts';

export const roleSchema = z.enum(['buyer', 'vendor', 'affiliate']);
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    /** Empty until the user picks one (docs/product.md#username-prompt). */
    username: z.string(),
    emailVerified: z.boolean(),
    roles: z.array(roleSchema),
    /** The largest JPEG of `avatar` (or a file stored before ADR 026). */
    avatarUrl: z.string().nullable(),
    avatar: responsiveImage.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const usernameSchema = z.string().superRefine((value, ctx) => {
  const problem = validateUsername(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const updateProfileSchema = z.object({ username: usernameSchema });

export const vendorRoleResponse = z.object({
  token: z.string(),
  /** Seconds. */
  accessTokenValidity: z.number().int(),
  user: z.object({ email: z.string(), token: z.string(), roles: z.array(roleSchema) }),
});
export type VendorRoleResponse = z.infer<typeof vendorRoleResponse>;

export const imageCategory = z.enum(['avatar']);

export const usersRoutes = {
  getProfile: defineRoute({
    method: 'GET',
    path: '/api/v1/user/profile',
    auth: 'bearer',
    summary: "The signed-in user's profile.",
    tags: ['users'],
    status: 200,
    response: z.object({ user: userSchema }),
  }),
  updateProfile: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/profile',
    auth: 'bearer',
    summary: 'Set the username (unique, case-insensitive).',
    tags: ['users'],
    status: 200,
    body: updateProfileSchema,
    response: z.object({ user: userSchema }),
  }),
  addVendorRole: defineRoute({
    method: 'POST',
    path: '/api/v1/user/role/vendor',
    auth: 'bearer',
    summary: 'Become a vendor; returns a token scoped to the vendor area.',
    tags: ['users'],
    status: 200,
    response: vendorRoleResponse,
  }),
  imageUpload: defineRoute({
    method: 'POST',
    path: '/api/v1/image-upload',
    auth: 'bearer',
    summary:
      'Upload an image (multipart field `file`; PNG, JPEG or WebP up to 2 MB). It is decoded, stripped of metadata and stored as AVIF, WebP and JPEG variants.',
    tags: ['users'],
    status: 200,
    multipart: true,
    query: z.object({ category: imageCategory }),
    response: z.object({ url: z.string(), user: userSchema }),
  }),
} as const;
