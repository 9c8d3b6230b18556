import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * docs/architecture.md#boundaries and ADR 029: module boundaries are enforced by the lint CI runs. Each case lints a
 * planted file at a real path with the project's configuration (eslint.config.js): breaks are
 * refused, the allowed shapes pass. Nested files and deep paths are planted too: the first rule
 * matched only the text `../x/y.ts` and let them through (issue 28).
 */
const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });
const boundaryRules = new Set(['no-restricted-imports', 'tradeshelf/boundaries']);

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal, 'the planted file parses').toEqual([]);
  return result!.messages.filter((m) => boundaryRules.has(m.ruleId ?? '')).map((m) => m.message);
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
      'a module importing another module’s use case file',
      'apps/api/src/modules/affiliates/x.ts',
      "import { x } from '../orders/checkout.ts';",
    ],
    [
      'a nested file of a module importing another module’s file',
      'apps/api/src/modules/orders/x/y.ts',
      "import { x } from '../../catalog/repository.ts';",
    ],
    [
      'a module importing another module’s nested file by a deep path',
      'apps/api/src/modules/catalog/x.ts',
      "import { x } from '../../modules/orders/x/y.ts';",
    ],
    [
      'a module importing another module’s nested index.ts',
      'apps/api/src/modules/catalog/x.ts',
      "import { x } from '../orders/x/index.ts';",
    ],
    [
      'a module re-exporting another module’s file',
      'apps/api/src/modules/membership/x.ts',
      "import { x } from './y.ts';\nexport { y } from '../orders/plans.ts';",
    ],
    [
      'a module loading another module’s file on demand',
      'apps/api/src/modules/membership/x.ts',
      "const { x } = await import('../orders/plans.ts');",
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
      'the wiring importing a module’s nested file',
      'apps/api/src/events/x.ts',
      "import { x } from '../modules/orders/x/routes.ts';",
    ],
    [
      'a web feature importing another feature’s slice',
      'apps/web/app/features/orders/x.ts',
      "import { x } from '../catalog/slice.ts';",
    ],
    [
      'a nested file of a web feature importing another feature’s file',
      'apps/web/app/features/orders/parts/x.tsx',
      "import { x } from '../../catalog/components.tsx';",
    ],
    [
      'a web feature importing the shell',
      'apps/web/app/features/users/x.tsx',
      "import { x } from '../../shell/header.tsx';",
    ],
    [
      'a web feature importing a route',
      'apps/web/app/features/users/x.tsx',
      "import { x } from '../../routes/account.tsx';",
    ],
    [
      'a kit component importing a feature’s internals',
      'apps/web/app/components/x.tsx',
      "import { x } from '../features/users/slice.ts';",
    ],
    [
      'a kit component importing a feature’s index.ts',
      'apps/web/app/components/x.tsx',
      "import { x } from '../features/discord/index.ts';",
    ],
    [
      'a nested kit component importing a feature',
      'apps/web/app/components/forms/x.tsx',
      "import { x } from '../../features/auth/slice.ts';",
    ],
    [
      'lib/ importing a feature',
      'apps/web/app/lib/x.ts',
      "import { x } from '../features/catalog/index.ts';",
    ],
    [
      'lib/ importing the shell',
      'apps/web/app/lib/x.ts',
      "import { x } from '../shell/header.tsx';",
    ],
    [
      'a browser spec taking Playwright’s own test, which does not wait for hydration (ADR 069)',
      'e2e/x.spec.ts',
      "import { test as x } from '@playwright/test';",
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
      'a nested file of a module using another’s index.ts',
      'apps/api/src/modules/orders/x/y.ts',
      "import { x } from '../../catalog/index.ts';",
    ],
    [
      'a module using its own repository',
      'apps/api/src/modules/orders/x.ts',
      "import { x } from './repository.ts';",
    ],
    [
      'a module using its own nested file, and a nested file its module’s',
      'apps/api/src/modules/orders/x/y.ts',
      "import { x } from '../checkout.ts';\nimport { y } from './z/w.ts';",
    ],
    [
      'a module using the platform and the contract',
      'apps/api/src/modules/orders/x/y.ts',
      "import { x } from '../../../platform/errors.ts';\nimport { y } from '@tradeshelf/contract';",
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
      'a web feature using the kit',
      'apps/web/app/features/orders/parts/x.tsx',
      "import { x } from '../../../lib/paths.ts';\nimport { y } from '../../../components/ui.tsx';",
    ],
    [
      'the kit using the kit',
      'apps/web/app/components/x.tsx',
      "import { x } from '../lib/format.ts';\nimport { y } from './ui.tsx';",
    ],
    [
      'a route composing features',
      'apps/web/app/routes/x.tsx',
      "import { x } from '../features/catalog/slice.ts';",
    ],
    [
      'the shell composing features',
      'apps/web/app/shell/x.tsx',
      "import { x } from '../features/users/slice.ts';\nimport { y } from '../features/auth/slice.ts';",
    ],
    [
      'a browser spec taking the suite’s test',
      'e2e/x.spec.ts',
      "import { test as x } from './test.ts';",
    ],
  ])('allows %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
