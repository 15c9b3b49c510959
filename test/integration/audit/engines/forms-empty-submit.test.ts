import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formsEngine } from '../../../../src/audit/engines/forms/forms.engine.ts';
import { structureEngine } from '../../../../src/audit/engines/structure/structure.engine.ts';
import { FORM_RULES } from '../../../../src/shared/rules/forms.ts';
import { openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

/** The forms engine sends each form with required fields empty, with nothing leaving the page (3.3.1, 3.3.3, F81). */

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Form</title>
<style>.bad { border: 2px solid #d00 !important; } input { border: 1px solid #888; }</style></head><body><main>${body}</main></body></html>`;
const formsOnly = { engines: [formsEngine] };
const rule = (r: ScannedResult, id: string) => r.findings.filter((f) => f.ruleId === id);
const posted = () => scanner.server.hits.filter((h) => h.startsWith('/submit') || h.startsWith('/api'));

describe('forms engine: a form sent empty', () => {
  it('fails fields marked wrong by colour only (F81), confirmed when no text appears, and sends nothing', async () => {
    const r = await scanner.scan(
      page(`<form id="f" action="/submit" method="post" novalidate>
        <label for="name">Name *</label><input id="name" name="name">
        <label for="email">Email *</label><input id="email" type="email" name="email" value="a@b.c">
        <button>Send</button></form>
        <script>
          document.getElementById('f').addEventListener('submit', (e) => {
            e.preventDefault();
            fetch('/api/log', { method: 'POST', body: 'x' }).catch(() => {});
            for (const i of document.querySelectorAll('#f input')) if (!i.value) i.classList.add('bad');
          });
        </script>`),
      formsOnly,
    );
    const found = rule(r, FORM_RULES.errorColourOnly);
    expect(found.map((f) => f.elementSelector).sort()).toEqual(['#email', '#name']);
    expect(found.every((f) => f.type === 'confirmed' && f.wcagCriterion === '3.3.1')).toBe(true);
    // Told by the border's colour: 1.4.1 too (F81).
    expect(found.every((f) => f.wcagCriteria.includes('1.4.1'))).toBe(true);
    expect(posted()).toEqual([]);
  });

  it('does not claim 1.4.1 for a field marked wrong only by aria-invalid, which no colour tells (issue 43)', async () => {
    const r = await scanner.scan(
      page(`<form id="f" action="/submit" method="post" novalidate>
        <label for="name">Name *</label><input id="name" name="name">
        <button>Send</button></form>
        <script>
          document.getElementById('f').addEventListener('submit', (e) => {
            e.preventDefault();
            for (const i of document.querySelectorAll('#f input')) if (!i.value) i.setAttribute('aria-invalid', 'true');
          });
        </script>`),
      formsOnly,
    );
    const found = rule(r, FORM_RULES.errorColourOnly);
    expect(found.map((f) => [f.elementSelector, f.wcagCriteria])).toEqual([['#name', ['3.3.1']]]);
  });

  it('flags an unhelpful error text next to an email field (3.3.3) and an error nobody is told of (3.3.1)', async () => {
    const r = await scanner.scan(
      page(`<form id="g" action="/submit2" method="post" novalidate>
        <label for="em">Email address *</label><input id="em" type="email"><span id="msg" hidden style="color:#c00">Invalid</span>
        <p><button type="submit">Register</button></p></form>
        <script>
          document.getElementById('g').onsubmit = (e) => { e.preventDefault(); document.getElementById('msg').hidden = false; document.getElementById('em').classList.add('bad'); };
        </script>`),
      formsOnly,
    );
    expect(rule(r, FORM_RULES.errorNoSuggestion)).toEqual([expect.objectContaining({ elementSelector: '#msg', type: 'needs_review', wcagCriterion: '3.3.3' })]);
    expect(rule(r, FORM_RULES.errorNotAnnounced)).toEqual([expect.objectContaining({ elementSelector: '#msg', type: 'needs_review' })]);
    expect(rule(r, FORM_RULES.errorColourOnly)).toEqual([]);
    expect(posted()).toEqual([]);
  });

  it('passes errors tied to their fields with a suggestion, and the browser’s own validation', async () => {
    const r = await scanner.scan(
      page(`<form id="h" action="/submit3" method="post" novalidate>
        <label for="em2">Email *</label><input id="em2" type="email" aria-describedby="e2"><span id="e2"></span>
        <button>Send</button></form>
        <script>
          document.getElementById('h').onsubmit = (e) => {
            e.preventDefault();
            const i = document.getElementById('em2');
            i.setAttribute('aria-invalid', 'true'); i.classList.add('bad');
            document.getElementById('e2').textContent = 'Enter your email address, like name@example.com';
          };
        </script>
        <form action="/submit4" method="post">
          <label for="n">Name</label><input id="n" required><label for="t">Phone</label><input id="t" type="tel" required>
          <button>Go</button></form>
        <form action="/submit5" method="post" novalidate><label for="s5">Town *</label><input id="s5" name="town"><button>Go</button></form>`),
      formsOnly,
    );
    for (const id of [FORM_RULES.errorColourOnly, FORM_RULES.errorNotAnnounced, FORM_RULES.errorNoSuggestion, FORM_RULES.invalidNoMessage, FORM_RULES.errorMessage]) {
      expect(rule(r, id), id).toEqual([]);
    }
    expect(posted()).toEqual([]);
  });

  it('puts the page back for the engines after it', async () => {
    // The script replaces the heading when the form is sent: the structure engine must still see the page as loaded.
    const r = await scanner.scan(
      page(`<h1 id="top">Contact us</h1><form id="k" novalidate>
        <label for="z">Name *</label><input id="z"><button>Send</button></form>
        <script>
          document.getElementById('k').onsubmit = (e) => { e.preventDefault(); document.getElementById('top').outerHTML = '<h3 id="top"></h3>'; document.getElementById('z').classList.add('bad'); };
        </script>`),
      { engines: [formsEngine, structureEngine] },
    );
    expect(rule(r, FORM_RULES.errorColourOnly)).toHaveLength(1);
    expect(r.findings.filter((f) => f.engineHelp && f.elementSelector === '#top')).toEqual([]);
  });
});
