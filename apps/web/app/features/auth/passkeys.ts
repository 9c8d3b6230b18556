// Passkeys in the browser (issue 33, ADR 054). This file, its calls and the WebAuthn library load
// only where they are used: the log-in page imports it when its passkey button is pressed, the
// account page with its passkey section. The library itself is a further chunk, fetched on the
// first ceremony.
import { passkeyEndpoints, passkeyMessages } from '@tradeshelf/contract/client';
import type { AccountConfirm, ApiError, LoginResponse, PasskeySummary } from '@tradeshelf/contract';
import { requestThunk as thunk } from '../../lib/thunk.ts';

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

type Session = { response: LoginResponse; outcome: 'blocked' | 'scheduled' };

/** Signs in with a passkey alone; the answer is applied exactly as a password login's. */
export const signInWithPasskey = thunk<void, Session>(
  'passkeys/signIn',
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

/** The second sign-in step with a passkey instead of a code. */
export const secondStepWithPasskey = thunk<string, Session>(
  'passkeys/secondStep',
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
