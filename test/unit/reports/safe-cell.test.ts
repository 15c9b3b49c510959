import { describe, expect, it } from 'vitest';
import {
  EXCEL_MAX_CELL_CHARS,
  EXCEL_MAX_URL_CHARS,
  safeCell,
  safeHyperlink,
  safeText,
  startsLikeFormula,
  stripXmlInvalid,
} from '../../../src/reports/safe-cell.ts';
import { HOSTILE_LINK_TEXT, HOSTILE_TITLE } from '../../helpers/sample-report.ts';

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;

describe('safeCell: values that are not text', () => {
  it('keeps numbers as numbers and empties the ones Excel cannot store', () => {
    for (const n of [0, 1, -5, 3.25, 1e300, -0.5, Number.MAX_SAFE_INTEGER]) expect(safeCell(n)).toBe(n);
    expect(safeCell(Number.NaN)).toBeNull();
    expect(safeCell(Number.POSITIVE_INFINITY)).toBeNull();
    expect(safeCell(Number.NEGATIVE_INFINITY)).toBeNull();
  });

  it('keeps valid Dates (the same object) and empties invalid ones', () => {
    const d = new Date('2026-11-20T10:00:00Z');
    expect(safeCell(d)).toBe(d);
    expect(safeCell(new Date('nope'))).toBeNull();
  });

  it('keeps booleans, turns null, undefined and empty text into an empty cell', () => {
    expect(safeCell(true)).toBe(true);
    expect(safeCell(false)).toBe(false);
    expect(safeCell(null)).toBeNull();
    expect(safeCell(undefined)).toBeNull();
    expect(safeCell('')).toBeNull();
    expect(safeCell(Symbol('x'))).toBeNull();
    expect(safeCell(() => 1)).toBeNull();
  });

  it('turns bigints into numbers when exact, else into text', () => {
    expect(safeCell(42n)).toBe(42);
    expect(safeCell(-(2n ** 70n))).toBe(`'-${(2n ** 70n).toString()}`);
  });

  it('joins arrays and stringifies other objects, through the text rule', () => {
    expect(safeCell(['target-size-mobile', 'axe'])).toBe('target-size-mobile, axe');
    expect(safeCell(['=1+1', 'x'])).toBe("'=1+1, x");
    expect(safeCell([])).toBeNull();
    expect(safeCell({ toString: () => '@cmd' })).toBe("'@cmd");
  });
});

describe('safeCell: the formula rule', () => {
  const triggers: Array<[string, string]> = [
    ['=', 'equals'],
    ['+', 'plus'],
    ['-', 'minus'],
    ['@', 'at'],
    ['\t', 'tab'],
    ['\r', 'carriage return'],
    ['\n', 'line feed'],
    ['\uFF1D', 'full-width equals'],
    ['\uFF0B', 'full-width plus'],
    ['\uFF0D', 'full-width minus'],
    ['\uFF20', 'full-width at'],
  ];
  for (const [ch, name] of triggers) {
    it(`prefixes an apostrophe to text starting with ${name}`, () => {
      expect(safeCell(`${ch}SUM(A1:A9)`)).toBe(`'${ch}SUM(A1:A9)`);
      expect(safeCell(ch)).toBe(`'${ch}`);
      expect(startsLikeFormula(`${ch}x`)).toBe(true);
    });
  }

  it('treats NUL as a formula start, and strips it (XML cannot carry it) before looking', () => {
    expect(startsLikeFormula('\u0000x')).toBe(true);
    expect(safeCell('\u0000cmd')).toBe('cmd');
    expect(safeCell('\u0000=cmd|x')).toBe("'=cmd|x");
  });

  it('looks at the text after stripping, so a control character cannot hide a formula start', () => {
    expect(safeCell('\u0001=1+1')).toBe("'=1+1");
    expect(safeCell('\u007F@SUM(1)')).toBe("'@SUM(1)");
    expect(safeCell('\uD800-2')).toBe("'-2");
  });

  it('prefixes an OOXML _xHHHH_ escape at the start (Excel decodes it into any character)', () => {
    expect(safeCell('_x003D_1+1')).toBe("'_x003D_1+1");
    expect(safeCell('_x003d_1+1')).toBe("'_x003d_1+1");
    expect(safeCell('_xyz_')).toBe('_xyz_');
  });

  it('neutralises the sample report hostile texts', () => {
    expect(safeCell(HOSTILE_TITLE)).toBe(`'${HOSTILE_TITLE}`);
    expect(safeCell(HOSTILE_LINK_TEXT)).toBe(`'${HOSTILE_LINK_TEXT}`);
  });

  it('leaves text alone when it cannot start a formula', () => {
    for (const s of ['Example home', ' =1+1', '1+1', "'=already quoted", 'a=b', '<a href="/x">', '#REF!', '%', '(1)', 'https://example.org/=x']) {
      expect(safeCell(s)).toBe(s);
    }
    // Negative numbers are numbers; only their text form is quoted.
    expect(safeCell(-3)).toBe(-3);
    expect(safeCell('-3')).toBe("'-3");
  });

  it('never returns text that starts like a formula or carries a forbidden character (random inputs)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ['=', '+', '-', '@', '\t', '\r', '\n', '\u0000', '\u0001', '\u001F', '\u007F', '\uD800', '\uDC00', '\uFFFE', '\uFFFF', 'a', ' ', "'", '_x003D_', '\uD83D\uDE00', '\uFF1D'];
    for (let i = 0; i < 5000; i++) {
      let s = '';
      const len = 1 + Math.floor(rnd() * 8);
      for (let k = 0; k < len; k++) s += alphabet[Math.floor(rnd() * alphabet.length)]!;
      const out = safeCell(s);
      if (out === null) continue;
      expect(typeof out).toBe('string');
      expect(startsLikeFormula(out as string), JSON.stringify(s)).toBe(false);
      expect(FORBIDDEN.test(out as string), JSON.stringify(s)).toBe(false);
    }
  });
});

describe('safeCell: characters XML forbids', () => {
  it('removes C0 controls other than tab, LF and CR, and DEL', () => {
    expect(safeCell('a\u0001b\u0008c\u000Bd\u000Ce\u000Ef\u001Fg\u007Fh')).toBe('abcdefgh');
    expect(safeCell('a\tb\nc\rd')).toBe('a\tb\nc\rd');
  });

  it('removes lone surrogates and U+FFFE/U+FFFF, keeps surrogate pairs', () => {
    expect(safeCell('a\uD800b')).toBe('ab');
    expect(safeCell('a\uDC00b')).toBe('ab');
    expect(safeCell('x\uDBFF')).toBe('x');
    expect(safeCell('a\uFFFEb\uFFFFc')).toBe('abc');
    expect(safeCell('smile \uD83D\uDE00 ok')).toBe('smile \uD83D\uDE00 ok');
    expect(stripXmlInvalid('\uD83D\uDE00\uD83D')).toBe('\uD83D\uDE00');
  });

  it('turns text of only forbidden characters into an empty cell', () => {
    expect(safeCell('\u0001\u0002')).toBeNull();
  });
});

describe('safeCell: length', () => {
  it('cuts text to 32,767 characters ending with an ellipsis', () => {
    const out = safeCell('a'.repeat(40_000)) as string;
    expect(out.length).toBe(EXCEL_MAX_CELL_CHARS);
    expect(out.endsWith('\u2026')).toBe(true);
    expect(out.startsWith('aaa')).toBe(true);
  });

  it('keeps text of exactly 32,767 characters whole', () => {
    const s = 'b'.repeat(EXCEL_MAX_CELL_CHARS);
    expect(safeCell(s)).toBe(s);
    expect((safeCell(`${s}b`) as string).length).toBe(EXCEL_MAX_CELL_CHARS);
  });

  it('counts the apostrophe in the limit', () => {
    const out = safeCell(`=${'c'.repeat(40_000)}`) as string;
    expect(out.length).toBe(EXCEL_MAX_CELL_CHARS);
    expect(out.startsWith("'=ccc")).toBe(true);
  });

  it('never splits a surrogate pair at the cut', () => {
    const s = 'd'.repeat(EXCEL_MAX_CELL_CHARS - 2) + '\uD83D\uDE00'.repeat(10);
    const out = safeCell(s) as string;
    expect(out.length).toBeLessThanOrEqual(EXCEL_MAX_CELL_CHARS);
    expect(FORBIDDEN.test(out)).toBe(false);
    expect(out.endsWith('\u2026')).toBe(true);
  });

  it('takes a shorter limit', () => {
    expect(safeCell('abcdefghij', { maxLength: 5 })).toBe('abcd\u2026');
    expect(safeText('=abcdefghij', 5)).toBe("'=ab\u2026");
    expect(safeText('abc', 10_000_000)).toBe('abc');
  });
});

describe('safeHyperlink', () => {
  it('accepts absolute http(s) URLs, normalised', () => {
    expect(safeHyperlink('https://www.example.org/docs/page-1.html')).toBe('https://www.example.org/docs/page-1.html');
    expect(safeHyperlink('http://example.org')).toBe('http://example.org/');
    expect(safeHyperlink('  HTTPS://Example.org/a b  ')).toBe('https://example.org/a%20b');
    expect(safeHyperlink('https://example.org/?q="><script>')).toBe('https://example.org/?q=%22%3E%3Cscript%3E');
  });

  it('refuses every other scheme, relative or broken URLs and non-strings', () => {
    for (const u of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'mailto:a@example.org',
      'ftp://example.org/x',
      '\\\\server\\share\\x.xlsx',
      '/docs/page-1.html',
      'example.org',
      'http://',
      '=HYPERLINK("http://evil.example")',
      '',
    ]) {
      expect(safeHyperlink(u), u).toBeNull();
    }
    expect(safeHyperlink(null)).toBeNull();
    expect(safeHyperlink(undefined)).toBeNull();
    expect(safeHyperlink(42)).toBeNull();
  });

  it('refuses addresses longer than Excel accepts', () => {
    const base = 'https://example.org/';
    expect(safeHyperlink(base + 'a'.repeat(EXCEL_MAX_URL_CHARS - base.length))).not.toBeNull();
    expect(safeHyperlink(base + 'a'.repeat(EXCEL_MAX_URL_CHARS - base.length + 1))).toBeNull();
  });
});
