// The import rules of src/: each folder's README says, in a paragraph that starts with
// "May import:", which other folders and top-level files of src/ its code may import. This ESLint
// rule reads those paragraphs and refuses any other import, so a README and the code cannot
// disagree (docs/decisions.md 66). Packages are not governed here (Fastify has its own rule in
// eslint.config.js).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Parses the "May import:" paragraph of a README: backticked entries, each a folder (`search/`), a
 * file inside one (`store/open-sqlite.ts`) or a top-level file (`types.ts`); a leading `../` is
 * dropped. `(types)` or `(types: why)` right after an entry allows type-only imports of it. The
 * list is the paragraph's first sentence. The single entry `nothing` allows none. Returns null when
 * the README has no such paragraph.
 */
export function parseMayImport(readme) {
  const start = readme.search(/^May import:/m);
  if (start < 0) return null;
  const paragraph = readme.slice(start + 'May import:'.length).split(/\n[ \t]*\n/)[0];
  // The list is the paragraph's first sentence: it ends at a '.' or ';' outside backticks, so
  // what follows ("Never `http/`", "its tests also `test-support/`") allows nothing.
  let end = paragraph.length;
  for (let i = 0, quoted = false; i < paragraph.length; i++) {
    if (paragraph[i] === '`') quoted = !quoted;
    else if (!quoted && (paragraph[i] === ';' || (paragraph[i] === '.' && /\s/.test(paragraph[i + 1] ?? ' ')))) {
      end = i;
      break;
    }
  }
  const entries = [];
  for (const token of paragraph.slice(0, end).matchAll(/`([^`]+)`(\s*\(types[):])?/g)) {
    const name = token[1].replace(/^(\.\.\/)+/, '');
    if (name === 'nothing') continue;
    entries.push({ name, typesOnly: Boolean(token[2]) });
  }
  return entries;
}

/** Every folder of `srcDir` with its parsed rules (null: the README lacks the paragraph or is missing). */
export function readFolderRules(srcDir) {
  const rules = new Map();
  for (const entry of readdirSync(srcDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const readme = path.join(srcDir, entry.name, 'README.md');
    rules.set(entry.name, existsSync(readme) ? parseMayImport(readFileSync(readme, 'utf8')) : null);
  }
  return rules;
}

/**
 * Whether `target` (a path inside src/, relative to it, with `/`) may be imported by code of
 * `folder` under `rules`; type-only imports may also use `(types)` entries.
 */
export function allowed(entries, folder, target, typeOnly) {
  if (target.startsWith(`${folder}/`)) return true;
  return entries.some(
    (entry) => (typeOnly || !entry.typesOnly) && (entry.name.endsWith('/') ? target.startsWith(entry.name) : target === entry.name),
  );
}

const cache = new Map();
function rulesFor(srcDir) {
  if (!cache.has(srcDir)) cache.set(srcDir, readFolderRules(srcDir));
  return cache.get(srcDir);
}

export const folderImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between src/ folders follow each folder README\'s "May import:" paragraph' },
    schema: [
      {
        type: 'object',
        properties: { srcDir: { type: 'string' }, testsMayImport: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: '{{folder}}/ may not import {{target}} ({{readme}} "May import:" does not list it{{hint}})',
      noRules: '{{readme}} has no "May import:" paragraph: say what {{folder}}/ may import',
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const srcDir = path.resolve(options.srcDir ?? 'src');
    const file = context.filename;
    const relative = path.relative(srcDir, file);
    if (relative.startsWith('..') || !relative.includes(path.sep)) return {};
    const folder = relative.split(path.sep)[0];
    const entries = rulesFor(srcDir).get(folder);
    const readme = `src/${folder}/README.md`;
    // Test code: a test file, or anything in a test-support/ folder (the contract suites among it).
    const isTest = /\.test\.ts$/.test(file) || relative.split(path.sep).includes('test-support');
    const extra = isTest ? (options.testsMayImport ?? []).map((name) => ({ name, typesOnly: false })) : [];
    let reportedMissing = false;
    function check(node, source, typeOnly) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path
        .relative(srcDir, path.resolve(path.dirname(file), source))
        .split(path.sep)
        .join('/');
      if (target.startsWith('..')) return;
      if (entries === null || entries === undefined) {
        if (!reportedMissing) context.report({ node, messageId: 'noRules', data: { readme, folder } });
        reportedMissing = true;
        return;
      }
      if (allowed([...entries, ...extra], folder, target, typeOnly)) return;
      const typesEntry = entries.find(
        (entry) => entry.typesOnly && (entry.name.endsWith('/') ? target.startsWith(entry.name) : target === entry.name),
      );
      context.report({
        node,
        messageId: 'forbidden',
        data: { folder, target, readme, hint: typesEntry ? '; it lists it for types only: use `import type`' : '' },
      });
    }
    const isTypeOnly = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((spec) => spec.importKind === 'type' || spec.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source.value, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};

export default { rules: { 'folder-imports': folderImportsRule } };
