// A software authenticator for HTTP tests of passkeys (ADR 054): ES256 keys from node:crypto,
// attestation "none" encoded with the CBOR encoder @simplewebauthn/server itself uses, and
// assertions signed over authenticatorData ‖ SHA-256(clientDataJSON), as WebAuthn §6.3.3 has it.
// It does what a browser and a platform authenticator do together, and lets a test do what they
// would refuse to: answer for another origin, turn its counter back, replay an answer.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
} from '@tradeshelf/contract';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftCredential {
  id: string;
  rpId: string;
  /** The user handle the site gave at registration (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

export interface Ceremony {
  /** The origin the "browser" reports; default the authenticator's. */
  origin?: string;
  /** Whether the person was verified (PIN, fingerprint); default yes. */
  verified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    readonly origin: string,
    /** Synced (backed up) passkeys, as iCloud Keychain or Google Password Manager make. */
    readonly synced = false,
  ) {}

  private flags(verified: boolean, attested: boolean): number {
    return (
      FLAG_UP |
      (verified ? FLAG_UV : 0) |
      (this.synced ? FLAG_BE | FLAG_BS : 0) |
      (attested ? FLAG_AT : 0)
    );
  }

  /** `navigator.credentials.create()`: a new ES256 key pair for the options' site and user. */
  create(options: PasskeyCreationOptions, c: Ceremony = {}): PasskeyRegistration {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(options.rp.id),
      Buffer.from([this.flags(c.verified ?? true, true)]),
      Buffer.alloc(4), // signature counter 0
      Buffer.alloc(16), // AAGUID: none, as attestation "none" allows
      idLength,
      id,
      cose,
    ]);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: c.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({
      id: b64url(id),
      rpId: options.rp.id,
      userHandle: options.user.id,
      privateKey,
      counter: 0,
    });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /**
   * `navigator.credentials.get()`: signs the options' challenge with a passkey they allow (or,
   * allowing none, this authenticator's first for the site), its counter moved on by one.
   */
  get(
    options: PasskeyRequestOptions,
    c: Ceremony & { credential?: SoftCredential; counter?: number } = {},
  ): PasskeyAssertion {
    const allowed = new Set(options.allowCredentials.map((d) => d.id));
    const credential =
      c.credential ??
      this.credentials.find(
        (k) => k.rpId === options.rpId && (allowed.size === 0 || allowed.has(k.id)),
      );
    if (!credential) throw new Error('soft authenticator: no passkey for these options');
    credential.counter = c.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authenticatorData = Buffer.concat([
      sha256(options.rpId),
      Buffer.from([this.flags(c.verified ?? true, false)]),
      counter,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: c.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    // ES256 signatures are DER-encoded in WebAuthn, node's default for EC keys.
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
