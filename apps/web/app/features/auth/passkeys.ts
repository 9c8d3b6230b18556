// Passkeys in the browser (issue 33, ADR 054). This file and its calls load with the two pages that
// use them (log-in, account), never with the shell; the WebAuthn library is a chunk of its own,
// fetched on the first ceremony.
import { passkeyEndpoints, passkeyMessages } from '@tradeshelf/contract/client';
import type { AccountConfirm, ApiError, PasskeySummary } from '@tradeshelf/contract';
import { requestThunk as thunk } from '../../lib/thunk.ts';
import type { SignInResult } from './api.ts';

const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser has WebAuthn at all: the passkey buttons show only where it does. */
export const canUsePasskeys = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * The browser's refusal as the contract's error shape: closed or timed out (the person chose not
 * to), already on the account, or no passkey support here.
 */
function ceremonyError(err: unknown): ApiError {
  const e = err as { name?: string; code?: string; cause?: { name?: string } } | null;
  if (e?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return { error: passkeyMessages.alreadyAdded, code: 'conflict' };
  const name = e?.cause?.name ?? e?.name;
  if (name === 'NotAllowedError' || name === 'AbortError')
    return { error: passkeyMessages.cancelled, code: 'bad_request' };
  return { error: passkeyMessages.unsupported, code: 'bad_request' };
}

/** Runs the browser's part; its failures become the contract's error shape, the server's pass. */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw ceremonyError(err);
  }
}

/**
 * Signs in with a passkey alone. It goes by the password login's own action type, so the login
 * group takes its answer exactly as a password login's (loading, the error, the welcome, the
 * unverified-e-mail block) and the shell carries nothing for passkeys.
 */
export const signInWithPasskey = thunk<void, SignInResult>(
  'auth/login',
  async (_, { api, session }) => {
    const [{ startAuthentication }, { options }] = await Promise.all([
      webauthn(),
      api.call(passkeyEndpoints.passkeyLoginOptions, {}),
    ]);
    const credential = await ceremony(() => startAuthentication({ optionsJSON: options }));
    const response = await api.call(passkeyEndpoints.passkeyLogin, { body: { credential } });
    return { response, outcome: session.acceptLogin(response) };
  },
);

/** The second sign-in step with a passkey instead of a code: the code step's action type, likewise. */
export const secondStepWithPasskey = thunk<string, SignInResult>(
  'auth/loginTwoFactor',
  async (challenge, { api, session }) => {
    const [{ startAuthentication }, { options }] = await Promise.all([
      webauthn(),
      api.call(passkeyEndpoints.passkeySecondStepOptions, { body: { challenge } }),
    ]);
    const credential = await ceremony(() => startAuthentication({ optionsJSON: options }));
    const response = await api.call(passkeyEndpoints.passkeySecondStep, {
      body: { challenge, credential },
    });
    return { response, outcome: session.acceptLogin(response) };
  },
);

export const fetchPasskeys = thunk<void, PasskeySummary[]>(
  'passkeys/list',
  async (_, { api }) => (await api.call(passkeyEndpoints.passkeys, {})).passkeys,
);

/** Adds a passkey: the owner proven, the authenticator asked, the answer stored under `name`. */
export const addPasskey = thunk<
  { name: string; proof: AccountConfirm },
  { message: string; passkey: PasskeySummary }
>('passkeys/add', async ({ name, proof }, { api }) => {
  const [{ startRegistration }, { options }] = await Promise.all([
    webauthn(),
    api.call(passkeyEndpoints.passkeyRegistrationOptions, { body: proof }),
  ]);
  const credential = await ceremony(() => startRegistration({ optionsJSON: options }));
  return api.call(passkeyEndpoints.passkeyAdd, { body: { name, credential } });
});

export const renamePasskey = thunk<
  { id: string; name: string },
  { message: string; passkey: PasskeySummary }
>('passkeys/rename', ({ id, name }, { api }) =>
  api.call(passkeyEndpoints.passkeyRename, { params: { id }, body: { name } }),
);

export const removePasskey = thunk<{ id: string; proof: AccountConfirm }, { message: string }>(
  'passkeys/remove',
  ({ id, proof }, { api }) =>
    api.call(passkeyEndpoints.passkeyRemove, { params: { id }, body: proof }),
);
