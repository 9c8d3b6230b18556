/** Profile and upload limits and messages: plain values, no zod. */

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const avatarTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const usersMessages = {
  usernameUpdated: 'Username updated successfully',
  updateFailed: 'Failed to update profile! Please try again.',
  usernameTaken: 'That username is taken. Try another.',
  imageTooLarge: 'The image must be 2 MB or smaller.',
  imageType: 'Upload a PNG, JPEG or WebP image.',
  imageMissing: 'Choose an image to upload.',
  imageCorrupt: 'The image could not be read: the file is damaged or incomplete.',
  imagePixels: 'The image is too large: at most 40 megapixels (for example 8000 × 5000).',
} as const;
