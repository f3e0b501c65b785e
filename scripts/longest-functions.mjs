/**
 * The longest functions in src/ (`npm run longest [-- N]`, default 20): name, file:line, lines.
 * A function's lines run from its first line to its last, nested functions included (a component
 * with its callbacks counts whole). Tests, fixtures and golden files are left out.
 *
 * Parsed with oxc (Vite's `parseSync`, the parser the build uses): TypeScript 7 has no compiler API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = /\.test\.tsx?$|\.test-d\.ts$|\.d\.ts$|\/fixtures\/|\/testing\/|\/__golden__\//;
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function sourceFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx)$/.test(name) && !SKIP.test(relative(ROOT, path))) out.push(path);
  }
  return out;
}

/** The name a function is known by: its own, or the variable, property, method or default export holding it. */
function nameOf(node, parent) {
  if (node.id?.name) return node.id.name;
  if (!parent) return '(anonymous)';
  if (parent.type === 'VariableDeclarator' && parent.id?.type === 'Identifier') return parent.id.name;
  if (
    (parent.type === 'Property' ||
      parent.type === 'MethodDefinition' ||
      parent.type === 'PropertyDefinition') &&
    parent.key
  )
    return parent.key.name ?? parent.key.value ?? '(computed)';
  if (parent.type === 'ExportDefaultDeclaration') return 'default';
  if (parent.type === 'CallExpression' && parent.callee?.type === 'Identifier')
    return `(${parent.callee.name} callback)`;
  return '(anonymous)';
}

/** Every function of one file: `{ name, file, line, lines }`. */
export function functionsOf(file, text = readFileSync(file, 'utf8')) {
  const { program, errors } = parseSync(file, text);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out = [];
  const visit = (node, parent) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parent);
      return;
    }
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTIONS.has(node.type)) {
      const line = lineAt(node.start);
      out.push({
        name: nameOf(node, parent),
        file: relative(ROOT, file),
        line,
        lines: lineAt(node.end) - line + 1,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'parent' && value && typeof value === 'object') visit(value, node);
    }
  };
  visit(program, null);
  return out;
}

/** Every function in src/, longest first. */
export function longestFunctions() {
  return sourceFiles(join(ROOT, 'src'))
    .flatMap((file) => functionsOf(file))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 20);
  for (const f of longestFunctions().slice(0, count)) {
    console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
  }
}
