/**
 * The value a module of the form `export default JSON.parse("…")` holds (the build's rule tables
 * and translations, src/cli/devServer.ts), as the browser gets it.
 *
 * @example
 * jsonModuleValue('export default JSON.parse("{\\"a\\":1}");\n'); // { a: 1 }
 */
export function jsonModuleValue(code: string): unknown {
  const prefix = 'export default JSON.parse(';
  if (!code.startsWith(prefix)) throw new Error(`not a JSON module: ${code.slice(0, 60)}`);
  return JSON.parse(JSON.parse(code.slice(prefix.length, code.lastIndexOf(')'))));
}
