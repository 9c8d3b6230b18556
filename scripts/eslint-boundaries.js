// The boundary rule of ADR 029 as a local ESLint rule. `no-restricted-imports` matches the
// specifier's text, so a pattern saw only `../x/y.ts` one folder up: a nested file's
// `../../catalog/x.ts` or `../../modules/orders/x/y.ts` escaped it (issue 28). This resolves each
// relative import against the importing file and judges the file it reaches.
import path from 'node:path';

const slash = (p) => p.split(path.sep).join('/');

/** `file`'s slice under `root` (its first folder there) and the rest of its path, or null. */
function sliceOf(root, file) {
  if (!file.startsWith(`${root}/`)) return null;
  const [name, ...rest] = file.slice(root.length + 1).split('/');
  return rest.length ? { name, rest: rest.join('/') } : null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Slices reach each other only through their entry files (ADR 029).' },
    schema: [
      {
        type: 'object',
        properties: {
          // Sub-folders of `root` are slices; one reaches another only through `entries`.
          slices: {
            type: 'object',
            properties: {
              root: { type: 'string' },
              entries: { type: 'array', items: { type: 'string' } },
              message: { type: 'string' },
            },
            required: ['root', 'entries', 'message'],
            additionalProperties: false,
          },
          // Files under these folders may not be imported at all from the linted files.
          forbidden: {
            type: 'object',
            properties: {
              targets: { type: 'array', items: { type: 'string' } },
              message: { type: 'string' },
            },
            required: ['targets', 'message'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    ],
    messages: { refused: '{{message}} ({{target}})' },
  },
  create(context) {
    const { slices, forbidden } = context.options[0] ?? {};
    const cwd = context.cwd;
    const from = slash(path.relative(cwd, context.filename));
    const own = slices && sliceOf(slices.root, from);

    function check(node, spec) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = slash(path.relative(cwd, path.resolve(path.dirname(context.filename), spec)));
      const report = (message) =>
        context.report({ node, messageId: 'refused', data: { message, target: spec } });
      if (forbidden?.targets.some((t) => target === t || target.startsWith(`${t}/`)))
        return report(forbidden.message);
      if (!slices) return;
      const other = sliceOf(slices.root, target);
      if (!other || (own && other.name === own.name)) return;
      if (!slices.entries.includes(other.rest)) report(slices.message);
    }

    const fromSource = (node) => node.source && check(node, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { boundaries } };
