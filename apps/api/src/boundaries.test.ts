import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md#boundaries and ADR 029: module boundaries are enforced by the lint CI runs. Each case lints a
 * one-line file at a real path with the project's configuration: breaks are refused, the allowed
 * shapes pass.
 */
const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('module boundaries', () => {
  it.each([
    [
      'a module importing another module’s repository',
      'apps/api/src/modules/orders/refunds.ts',
      "import { x } from '../catalog/repository.ts';",
    ],
    [
      'a module importing another module’s service file',
      'apps/api/src/modules/support/x.ts',
      "import { x } from '../users/service.ts';",
    ],
    [
      'a module importing another module’s tables outside tables.ts',
      'apps/api/src/modules/orders/ledger.ts',
      "import { x } from '../catalog/tables.ts';",
    ],
    [
      'a tables.ts importing another module’s service',
      'apps/api/src/modules/orders/tables.ts',
      "import { x } from '../catalog/service.ts';",
    ],
    [
      'an integration importing a module',
      'apps/api/src/integrations/payments/x.ts',
      "import { x } from '../../modules/orders/index.ts';",
    ],
    [
      'platform code importing a module',
      'apps/api/src/platform/x.ts',
      "import { x } from '../modules/users/index.ts';",
    ],
    [
      'the wiring importing a module’s internals',
      'apps/api/src/jobs/x.ts',
      "import { x } from '../modules/orders/service.ts';",
    ],
    [
      'a web feature importing another feature’s slice',
      'apps/web/app/features/orders/x.ts',
      "import { x } from '../catalog/slice.ts';",
    ],
  ])('refuses %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'a module using another’s index.ts',
      'apps/api/src/modules/orders/x.ts',
      "import { x } from '../catalog/index.ts';",
    ],
    [
      'a module using its own repository',
      'apps/api/src/modules/orders/x.ts',
      "import { x } from './repository.ts';",
    ],
    [
      'a tables.ts naming another module’s tables',
      'apps/api/src/modules/orders/tables.ts',
      "import { x } from '../catalog/tables.ts';",
    ],
    [
      'the wiring importing routes',
      'apps/api/src/app.ts',
      "import { x } from './modules/orders/routes.ts';",
    ],
    [
      'a web feature using another’s index.ts',
      'apps/web/app/features/orders/x.ts',
      "import { x } from '../catalog/index.ts';",
    ],
    [
      'a route composing features',
      'apps/web/app/routes/x.tsx',
      "import { x } from '../features/catalog/slice.ts';",
    ],
  ])('allows %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
