// Checks of the licence policy form and the build upload, with the contract's rules and messages.
import {
  buildVersionPattern,
  LICENCE_BUILD_MAX_BYTES,
  LICENCE_MAX_ACTIVATIONS_LIMIT,
  LICENCE_MAX_ACTIVATIONS_MIN,
  uploadNameProblem,
  vendorLicenceMessages as m,
} from '@tradeshelf/contract/client';
import type { LicenceBinding, LicencePolicyBody } from '@tradeshelf/contract';

/** The form as typed; `binding` '' is "any preset". */
export interface PolicyForm {
  maxActivations: string;
  binding: LicenceBinding | '';
}

export function policyBody(
  form: PolicyForm,
): { body: LicencePolicyBody; problems: null } | { body: null; problems: Record<string, string> } {
  const n = Number(form.maxActivations);
  if (
    !/^\d+$/.test(form.maxActivations.trim()) ||
    n < LICENCE_MAX_ACTIVATIONS_MIN ||
    n > LICENCE_MAX_ACTIVATIONS_LIMIT
  )
    return { body: null, problems: { maxActivations: m.maxActivations } };
  return { body: { maxActivations: n, binding: form.binding || null }, problems: null };
}

export function versionProblem(version: string): string | null {
  return buildVersionPattern.test(version.trim()) ? null : m.version;
}

const BUILD_NAME = /\.(zip|gz|tgz|exe|msi)$/i;

export function buildFileProblem(file: { name: string; size: number }): string | null {
  const name = uploadNameProblem(file.name);
  if (name) return name;
  if (!BUILD_NAME.test(file.name)) return m.buildType;
  if (file.size > LICENCE_BUILD_MAX_BYTES) return m.buildTooLarge;
  return null;
}
