/**
 * JUnit XML for CI test reports: a test suite per page, a failing test case per issue that counts
 * toward the gates, a passing one for a page with none. Page content is untrusted, so every value
 * is stripped of what XML 1.0 cannot carry and escaped; nothing goes into CDATA, whose `]]>`
 * could not be escaped.
 */
import type { AuditIssue } from './types.ts';

/**
 * XML 1.0 allows tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF. This drops the
 * other control characters, U+FFFE/U+FFFF and surrogates not part of a pair (no `u` flag: the
 * pattern must see UTF-16 code units to find a lone half).
 */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripXmlForbidden(s: string): string {
  return s.replace(XML_FORBIDDEN, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** A parser turns CR and CRLF into LF in text, so CR is written as a reference to come back as it was. */
export function escapeXmlText(s: string): string {
  return stripXmlForbidden(s).replace(/[&<>"'\r]/g, (c) => TEXT_ESCAPES[c] ?? '&#13;');
}

/** In attributes a parser also turns tab and LF into spaces unless they are references. */
export function escapeXmlAttr(s: string): string {
  return escapeXmlText(s).replace(/[\t\n]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface JunitInput {
  /** Every page the run covered, with or without issues. */
  pages: readonly string[];
  /** The issues that count toward the gates: each one is a failing test case. */
  failing: readonly AuditIssue[];
}

function failureBody(issue: AuditIssue): string {
  const lines = [
    issue.description,
    issue.fixSuggestion ? `How to fix: ${issue.fixSuggestion}` : '',
    `WCAG ${issue.wcagCriterion}${issue.wcagLevel ? ` (level ${issue.wcagLevel})` : ''}, ${issue.severity}, ${issue.type}${issue.isNew ? ', new' : ''}`,
    issue.wcagCriteria.length > 1 ? `Also fails: WCAG ${issue.wcagCriteria.filter((c) => c !== issue.wcagCriterion).join(', ')}` : '',
    `Rule: ${issue.ruleId}${issue.helpUrl ? ` (${issue.helpUrl})` : ''}`,
    `Element: ${issue.selector}`,
    issue.elementHtml ? `HTML: ${issue.elementHtml}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}

export function buildJunit(input: JunitInput): string {
  const byPage = new Map<string, AuditIssue[]>();
  for (const page of input.pages) byPage.set(page, []);
  for (const issue of input.failing) {
    const list = byPage.get(issue.pageUrl);
    if (list) list.push(issue);
    else byPage.set(issue.pageUrl, [issue]);
  }
  let tests = 0;
  const suites: string[] = [];
  for (const [page, issues] of byPage) {
    const cases =
      issues.length === 0
        ? [`    <testcase classname="${escapeXmlAttr(page)}" name="${escapeXmlAttr('no counted accessibility issues')}"/>`]
        : issues.map(
            (i) =>
              `    <testcase classname="${escapeXmlAttr(page)}" name="${escapeXmlAttr(`${i.ruleId} ${i.selector}`)}">\n` +
              `      <failure message="${escapeXmlAttr(i.description)}" type="${escapeXmlAttr(i.severity)}">${escapeXmlText(failureBody(i))}</failure>\n` +
              '    </testcase>',
          );
    tests += cases.length;
    suites.push(
      `  <testsuite name="${escapeXmlAttr(page)}" tests="${cases.length}" failures="${issues.length}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="a11y-audit" tests="${tests}" failures="${input.failing.length}">\n` +
    suites.map((s) => `${s}\n`).join('') +
    '</testsuites>\n'
  );
}
