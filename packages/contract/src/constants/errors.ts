import type { ApiError } from '../errors.ts';

/** Stable error codes and the HTTP status each maps to. */
export const errorStatus = {
  validation_failed: 400,
  invalid_code: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_token: 401,
  token_reused: 401,
  forbidden: 403,
  email_not_verified: 403,
  not_found: 404,
  /** A licence key that is not valid: unknown, replaced by a reset or mistyped all answer alike. */
  licence_invalid: 404,
  conflict: 409,
  email_taken: 409,
  username_taken: 409,
  already_verified: 409,
  /** The client took too long to send its request. */
  request_timeout: 408,
  payload_too_large: 413,
  /** A URL (path segment) longer than the server reads. */
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  business_rule: 422,
  /** A licence already active on as many devices as it allows. */
  activation_limit: 422,
  /** A licence that expired or was revoked. */
  licence_inactive: 422,
  rate_limited: 429,
  /** Request headers (the URL included) larger than the server reads. */
  headers_too_large: 431,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export function statusFor(code: ErrorCode): number {
  return errorStatus[code];
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).error === 'string' &&
    typeof (value as ApiError).code === 'string'
  );
}
