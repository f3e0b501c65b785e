import { describe, expect, it } from 'vitest';
import { dropUnusedRules, mantineClassesIn } from './usedCssPlugin.ts';

describe('mantineClassesIn', () => {
  it("collects Mantine's class names from code, and nothing else", () => {
    const used = mantineClassesIn([
      'var c = { root: "m_89ab340a", label: "m_12345678" };',
      'x.m_deadbeef m_nothex00',
    ]);
    expect([...used].sort()).toEqual(['m_12345678', 'm_89ab340a', 'm_deadbeef']);
  });
});

describe('dropUnusedRules', () => {
  const used = new Set(['m_11111111']);

  it('drops a rule whose selectors all name an unused class, keeps the used and the class-less ones', () => {
    const css = ':root{--x:1}.m_11111111{a:b}.m_22222222{c:d}.m_22222222:where([data-x]) .m_11111111{e:f}';
    expect(dropUnusedRules(css, used)).toBe(':root{--x:1}.m_11111111{a:b}');
  });

  it('keeps the live selectors of a list and drops the dead ones', () => {
    expect(dropUnusedRules('.m_11111111,.m_22222222{a:b}', used)).toBe('.m_11111111{a:b}');
  });

  it('drops an emptied at-rule block, keeps keyframes and a block with a live rule', () => {
    const css =
      '@media (min-width:1px){.m_22222222{a:b}}@media print{.m_11111111{a:b}}@keyframes m_33333333{from{opacity:0}to{opacity:1}}';
    expect(dropUnusedRules(css, used)).toBe(
      '@media print{.m_11111111{a:b}}@keyframes m_33333333{from{opacity:0}to{opacity:1}}',
    );
  });

  it('leaves a sheet of used classes as it was', () => {
    const css = '.m_11111111 {\n  color: red;\n}\n';
    expect(dropUnusedRules(css, used)).toBe(css);
  });
});
