import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { buildJunit, escapeXmlAttr, escapeXmlText, stripXmlForbidden } from '../../../src/cli/junit.ts';
import type { AuditIssue } from '../../../src/cli/types.ts';
import { auditIssue } from '../../helpers/audit-issue.ts';

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

/** A strict XML 1.0 parser (saxes checks well-formedness and the allowed characters): throws on the first error. */
function parseXml(xml: string): El {
  const doc: El = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [doc];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const el: El = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' };
    stack.at(-1)!.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => void (stack.at(-1)!.text += t));
  parser.write(xml).close();
  expect(doc.children).toHaveLength(1);
  return doc.children[0]!;
}

// A lone low surrogate first and a lone high one last: next to each other they would be a valid pair.
const FORBIDDEN = '\uDFFF\u0000\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800';
const HOSTILE = `x]]> <script>alert("1")</script> 'single' & "double" &amp; ${FORBIDDEN} tab\tnl\ncr\r\ncrlf 😀 \uD83D\uDE00`;
const HOSTILE_CLEAN = `x]]> <script>alert("1")</script> 'single' & "double" &amp;  tab\tnl\ncr\r\ncrlf 😀 \uD83D\uDE00`;

/** A new contrast issue with short texts and no help link. */
const issue = (extra: Partial<AuditIssue>): AuditIssue =>
  auditIssue({ id: 'i1', selector: 'main > p', elementHtml: '<p>Hi</p>', description: 'Low contrast.', fixSuggestion: 'Darken the text.', helpUrl: null, isNew: true, ...extra });

describe('the XML check itself', () => {
  it('rejects what is not well-formed XML 1.0, so a parse below means something', () => {
    expect(() => parseXml('<a>]]></a>')).toThrow();
    expect(() => parseXml('<a>\u0000</a>')).toThrow();
    expect(() => parseXml('<a b="<"/>')).toThrow();
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow();
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a>\uFFFF</a>')).toThrow();
  });
});

describe('stripXmlForbidden and escaping', () => {
  it('drops what XML 1.0 cannot carry and keeps pairs of surrogates', () => {
    expect(stripXmlForbidden(`a${FORBIDDEN}b\t\n\r😀\u{10FFFF}\uD83D\uDE00`)).toBe('ab\t\n\r😀\u{10FFFF}\uD83D\uDE00');
    expect(stripXmlForbidden('\uDE00\uD83D')).toBe('');
  });

  it('escapes the five special characters', () => {
    expect(escapeXmlText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(escapeXmlAttr('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });

  it('round-trips any text through a strict parser, minus the forbidden characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (attr, text) => {
        const el = parseXml(`<t a="${escapeXmlAttr(attr)}">${escapeXmlText(text)}</t>`);
        expect(el.attrs.a).toBe(stripXmlForbidden(attr));
        expect(el.text).toBe(stripXmlForbidden(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildJunit', () => {
  it('writes a suite per page, a failing case per counted issue and a passing case for a clean page', () => {
    const xml = buildJunit({
      pages: ['https://example.org/', 'https://example.org/clean'],
      failing: [
        issue({}),
        issue({ id: 'i2', ruleId: 'image-alt', selector: 'img.hero', severity: 'critical', wcagCriterion: '1.1.1', wcagLevel: 'A', helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt' }),
        issue({ id: 'i3', pageUrl: 'https://example.org/other', severity: 'minor', isNew: false }),
      ],
    });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parseXml(xml);
    expect(root).toMatchObject({ name: 'testsuites', attrs: { name: 'a11y-audit', tests: '4', failures: '3' } });
    expect(root.children.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures])).toEqual([
      ['https://example.org/', '2', '2'],
      ['https://example.org/clean', '1', '0'],
      ['https://example.org/other', '1', '1'],
    ]);
    const [first, second] = root.children[0]!.children;
    expect(first!.attrs).toEqual({ classname: 'https://example.org/', name: 'color-contrast main > p' });
    expect(first!.children[0]!).toMatchObject({ name: 'failure', attrs: { message: 'Low contrast.', type: 'serious' } });
    expect(first!.children[0]!.text).toBe(
      'Low contrast.\nHow to fix: Darken the text.\nWCAG 1.4.3 (level AA), serious, confirmed, new\nRule: color-contrast\nElement: main > p\nHTML: <p>Hi</p>',
    );
    expect(second!.children[0]!.text).toContain('Rule: image-alt (https://dequeuniversity.com/rules/axe/4.10/image-alt)');
    const clean = root.children[1]!.children;
    expect(clean).toHaveLength(1);
    expect(clean[0]).toMatchObject({ name: 'testcase', attrs: { classname: 'https://example.org/clean' }, children: [] });
  });

  it('parses and keeps the text of hostile page content', () => {
    const xml = buildJunit({
      pages: [`https://example.org/?q="<x>"&r='y'`],
      failing: [issue({ pageUrl: `https://example.org/?q="<x>"&r='y'`, selector: HOSTILE, description: HOSTILE, fixSuggestion: HOSTILE, elementHtml: HOSTILE })],
    });
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(']]>');
    const root = parseXml(xml);
    const suite = root.children[0]!;
    expect(suite.attrs.name).toBe(`https://example.org/?q="<x>"&r='y'`);
    const testcase = suite.children[0]!;
    expect(testcase.attrs.name).toBe(`color-contrast ${HOSTILE_CLEAN}`);
    expect(testcase.children[0]!.attrs.message).toBe(HOSTILE_CLEAN);
    expect(testcase.children[0]!.text).toBe(
      `${HOSTILE_CLEAN}\nHow to fix: ${HOSTILE_CLEAN}\nWCAG 1.4.3 (level AA), serious, confirmed, new\nRule: color-contrast\nElement: ${HOSTILE_CLEAN}\nHTML: ${HOSTILE_CLEAN}`,
    );
  });

  it('writes a valid document with no pages and no issues', () => {
    expect(parseXml(buildJunit({ pages: [], failing: [] }))).toMatchObject({ name: 'testsuites', attrs: { tests: '0', failures: '0' }, children: [] });
  });
});
