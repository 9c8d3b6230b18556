import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '@tradeshelf/contract';

/**
 * Whether a signed licence answer checks out against the vendor's public key (PEM), as a vendor's
 * app checks it: the signature over the canonical JSON of the rest of the answer.
 */
export function verifies(answer: Record<string, unknown>, pem: string): boolean {
  const { signature, ...signed } = answer;
  return verify(
    null,
    Buffer.from(canonicalJson(signed)),
    createPublicKey(pem),
    Buffer.from(signature as string, 'base64'),
  );
}
