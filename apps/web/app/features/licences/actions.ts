import type { Licence } from '@tradeshelf/contract';
import { thunkActions } from '../../lib/thunk.ts';

// The licence calls' actions, which the user slice (loaded by every page) reduces: the calls themselves
// and their routes load with the apps page (api.ts).

/** user.apps (`GET /api/v1/licence`, docs/product.md#calls): every licence the buyer holds, newest first. */
export const appsCall = thunkActions<void, Licence[]>('user/apps');

/** A device's slot freed: the licence as it now stands. */
export const deactivateDeviceCall = thunkActions<
  { licenceId: string; activationId: string },
  Licence
>('licence/deactivate');

/** A new key: the licence as it now stands. */
export const resetLicenceKeyCall = thunkActions<string, Licence>('licence/reset');
