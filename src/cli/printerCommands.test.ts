import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { printOpenApi } from '../printers/printOpenApi.ts';
import { printPgTap } from '../printers/printPgTap.ts';
import { printTypes } from '../printers/printTypes.ts';
import { main } from './main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('ninefold types | openapi | tests', () => {
  it.each([
    ['types', printTypes],
    ['openapi', printOpenApi],
    ['tests', printPgTap],
  ] as const)('ninefold %s prints its printer’s output for the spec', async (command, printer) => {
    const { io, out } = capture();
    expect(await main([command, 'examples/helpdesk'], io)).toBe(0);
    expect(out.join('')).toBe(printer(helpdesk));
  });

  it('refuses a specification with errors, like sql and doc', async () => {
    const { io, err } = capture();
    expect(await main(['types', 'src/cli/fixtures/errors.json'], io)).toBe(1);
    expect(err.join('')).toContain('run ninefold check');
  });

  it('lists the commands in --help', async () => {
    const { io, out } = capture();
    expect(await main(['--help'], io)).toBe(0);
    for (const c of ['types', 'openapi', 'tests'])
      expect(out.join('')).toMatch(new RegExp(`\\n\\s+${c} \\[options\\] <spec>`));
  });
});
