import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { clearUser, initialUserState, userSlice, type UserState } from '../users/slice.ts';
import { deactivateDevice, downloadBuild, fetchApps, resetLicenceKey } from './api.ts';
import {
  initialLicenceState,
  licenceActionCleared,
  licenceSlice,
  type LicenceState,
} from './slice.ts';
import { activation, licence } from './test-fixtures.ts';

type Action = { type: string; payload?: unknown };
const user = (s: UserState, ...actions: Action[]) =>
  actions.reduce((x, a) => userSlice.reducer(x, a), s);
const group = (s: LicenceState, ...actions: Action[]) =>
  actions.reduce((x, a) => licenceSlice.reducer(x, a), s);

const limited = { error: 'Too many attempts. Try again in 5 minutes.', code: 'rate_limited' };
const device = { licenceId: 'lic_1', activationId: 'act_1' };

describe('user.apps (docs/product.md#request-groups)', () => {
  it('loading → success with the licences; a failure keeps the whole error and the cards', () => {
    const list = [licence(), licence({ id: 'lic_2', activations: [] })];
    let s = user(initialUserState, fetchApps.pending('r'));
    expect(s.apps.status).toBe('loading');
    s = user(s, fetchApps.fulfilled(list, 'r'));
    expect(s.apps).toEqual({ status: 'success', data: list, error: null });
    s = user(s, fetchApps.pending('r2'), fetchApps.rejected(null, 'r2', undefined, limited));
    expect(s.apps).toEqual({ status: 'failure', data: list, error: limited });
  });

  it('a deactivation or a reset puts the answer in place of that licence only', () => {
    const other = licence({ id: 'lic_2' });
    let s = user(initialUserState, fetchApps.fulfilled([licence(), other], 'r'));
    const freed = licence({ activations: [] });
    s = user(s, deactivateDevice.fulfilled(freed, 'r2', device));
    expect(s.apps.data).toEqual([freed, other]);
    const renewed = licence({ key: 'TS-AAAAA-BBBBB-CCCCC-DDDDD', resetsLeft: 2, activations: [] });
    s = user(s, resetLicenceKey.fulfilled(renewed, 'r3', 'lic_1'));
    expect(s.apps.data).toEqual([renewed, other]);
  });

  it('an answer before the list arrives leaves no half list; signing out forgets the keys', () => {
    let s = user(initialUserState, deactivateDevice.fulfilled(licence(), 'r', device));
    expect(s.apps.data).toBeNull();
    s = user(s, fetchApps.fulfilled([licence()], 'r2'), clearUser());
    expect(s.apps).toEqual(initialUserState.apps);
  });
});

describe('licence group', () => {
  it('each action names the device or licence it is about, with the error of its failure', () => {
    let s = group(initialLicenceState, deactivateDevice.pending('r', device));
    expect(s.deactivate).toMatchObject({ status: 'loading', target: device });
    s = group(s, deactivateDevice.rejected(null, 'r', device, limited));
    expect(s.deactivate).toMatchObject({ status: 'failure', error: limited, target: device });

    const used = { error: 'You have used all 3 key resets.', code: 'business_rule' };
    s = group(
      s,
      resetLicenceKey.pending('r2', 'lic_2'),
      resetLicenceKey.rejected(null, 'r2', 'lic_2', used),
    );
    expect(s.reset).toMatchObject({ status: 'failure', error: used, licenceId: 'lic_2' });
    // The device's failure is its own.
    expect(s.deactivate.error).toEqual(limited);
  });

  it('a new action on another licence starts clean; a closed confirm step drops its words', () => {
    const link = {
      url: '/files/licences/builds/demo/app.zip?exp=1&sig=x',
      expiresAt: '2026-11-22T10:15:00.000Z',
      build: licence().build!,
    };
    let s = group(initialLicenceState, downloadBuild.fulfilled(link, 'r', 'lic_1'));
    expect(s.download).toMatchObject({ status: 'success', data: link });
    s = group(s, downloadBuild.pending('r2', 'lic_2'));
    expect(s.download).toEqual({ status: 'loading', data: null, error: null, licenceId: 'lic_2' });

    s = group(
      s,
      deactivateDevice.pending('r3', device),
      deactivateDevice.rejected(null, 'r3', device, limited),
      licenceActionCleared('deactivate'),
    );
    expect(s.deactivate).toEqual(initialLicenceState.deactivate);
    expect(s.download.licenceId).toBe('lic_2');
  });

  it('nothing outlives the session', () => {
    const s = group(
      initialLicenceState,
      deactivateDevice.fulfilled(
        licence({ activations: [activation({ id: 'act_2' })] }),
        'r',
        device,
      ),
      sessionEnded(),
    );
    expect(s).toEqual(initialLicenceState);
  });
});
