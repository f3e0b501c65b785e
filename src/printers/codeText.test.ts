import { describe, expect, it } from 'vitest';
import { screenPreviewScript } from '../cli/screenPreviewPlugin.ts';
import { blockCommentLine, inlineScriptJson, jsString, lineComment } from './codeText.ts';

describe('finding 28.1: spec text in generated code stays data', () => {
  it('finding 28.1: a line comment ends at every line terminator JavaScript knows, each line re-commented', () => {
    const text = 'Tasks\rprocess.exit(1)\u2028a()\u2029b()\r\nc()\nd()';
    const out = lineComment(text);
    expect(out.split('\n')).toEqual([
      '// Tasks',
      '// process.exit(1)',
      '// a()',
      '// b()',
      '// c()',
      '// d()',
    ]);
    expect(out).not.toMatch(/[\r\u2028\u2029]/);
  });

  it('finding 28.1: a block comment line cannot be closed, strings keep the separators escaped', () => {
    expect(blockCommentLine('a */ b\u2028c')).toBe('a * / b c');
    const open = '$' + '{'; // written apart: a template placeholder in a plain string is linted
    expect(jsString(`a\u2028b\u2029"\`${open}x}\``)).toBe(`"a\\u2028b\\u2029\\"\`${open}x}\`"`);
    expect(JSON.parse(jsString('a\u2028b'))).toBe('a\u2028b');
  });

  it('finding 28.1: JSON inside an inline script cannot close the script or open a comment', () => {
    const json = inlineScriptJson({ k: '</script><script>alert(1)</script><!-- \u2028 & >' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ k: '</script><script>alert(1)</script><!-- \u2028 & >' });
    expect(screenPreviewScript('k</script>')).not.toContain('</script>');
  });
});
