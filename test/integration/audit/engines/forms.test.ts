import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { formsEngine } from '../../../../src/audit/engines/forms/forms.engine.ts';
import { FORM_GUIDES as GUIDES, FORM_RULES } from '../../../../src/shared/rules/forms.ts';
import { openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

/** Fixture pages for the forms engine: each check with failing and passing variants, one page per check. */

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const page = (body: string, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Form</title>${head}</head><body><main>${body}</main></body></html>`;
const formsOnly = { engines: [formsEngine] };
const withAxe = { engines: [axeEngine, formsEngine] };

function on(result: ScannedResult, selector: string) {
  return result.findings.filter((f) => f.elementSelector === selector);
}
function rule(result: ScannedResult, ruleId: string, selector: string) {
  return on(result, selector).find((f) => f.ruleId === ruleId);
}

describe('forms engine', () => {
  it('reports a visible label missing from the accessible name (2.5.3), confirmed only where exact', async () => {
    const r = await scanner.scan(
      page(`
        <button id="f1" aria-label="Find">Search now</button>
        <a id="f2" href="#" aria-label="Download specification">Download <span aria-hidden="true">gizmo</span> specification</a>
        <label for="f3">Email</label><input id="f3" type="email" aria-label="Contact">
        <button id="p1" aria-label="Next">Next…</button>
        <button id="p2" aria-label="Search by date">Search by date (YYYY-MM-DD)</button>
        <a id="p3" href="#" aria-label="Download specification">Download <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)">gizmo</span> specification</a>
        <a id="p4" href="#" aria-label="University Avenue">University Ave.</a>
        <button id="p5" aria-label="Find" style="font-family: 'Material Icons'">search</button>
        <button id="p6" aria-label="anything">X</button>
        <label for="p7">Date of birth (DD/MM/YYYY)</label><input id="p7" aria-label="Date of birth">
        <a id="p8" href="#" aria-label="ACT"><div style="display:inline">A</div><div style="display:inline">C</div><div style="display:inline">T</div></a>
        <a id="p9" href="#" aria-label="Some article by John Doe"><h6>Some article</h6><p>by John Doe</p></a>`),
      withAxe,
    );
    for (const id of ['#f1', '#f2', '#f3']) expect(rule(r, 'label-in-name', id), id).toMatchObject({ type: 'confirmed', wcagCriterion: '2.5.3' });
    expect(rule(r, 'label-in-name', '#f1')!.failureSummary).toContain('"Search now"');
    for (const id of ['#p1', '#p2', '#p3', '#p4', '#p5', '#p6', '#p7', '#p8', '#p9']) expect(rule(r, 'label-in-name', id), id).toBeUndefined();
    // Where the engine measured a pass, axe's undecided label-in-name result is withdrawn.
    for (const id of ['#p1', '#p4', '#p5']) expect(on(r, id).filter((f) => f.wcagCriterion === '2.5.3'), id).toEqual([]);
    // One issue per element and criterion: axe's needs-review is merged into the confirmed one.
    expect(on(r, '#f1').filter((f) => f.wcagCriterion === '2.5.3')).toHaveLength(1);
  });

  it('reports labels that are not tied to their field (1.3.1), leaving unnamed fields to axe', async () => {
    const r = await scanner.scan(
      page(`<form>
        <div><label for="nowhere">Email</label><input id="f1" type="email" title="Your address"></div>
        <div><label>Phone</label><input id="f2" type="tel" placeholder="01234 567890"></div>
        <div>Postcode: <input id="f3" placeholder="AB1 2CD"></div>
        <div><label for="p1">Town</label><input id="p1"></div>
        <div><label>Street <input id="p2"></label></div>
        <div><label for="nothing">County</label><input id="p3"></div>
        <div><span>Country</span><input id="p4" aria-label="Country"></div>
      </form>`),
      withAxe,
    );
    expect(rule(r, 'form-label-not-associated', '#f1')).toMatchObject({ type: 'confirmed', wcagCriterion: '1.3.1' });
    expect(rule(r, 'form-label-not-associated', '#f1')!.failureSummary).toContain('matches no element');
    expect(rule(r, 'form-label-not-associated', '#f2')).toMatchObject({ type: 'confirmed' });
    expect(rule(r, 'form-label-not-associated', '#f3')).toMatchObject({ type: 'needs_review' });
    for (const id of ['#p1', '#p2', '#p4']) expect(on(r, id).filter((f) => f.data.engine === 'forms'), id).toEqual([]);
    // No name at all: axe's `label` says it; the forms engine adds nothing on that field.
    expect(on(r, '#p3').some((f) => f.ruleId === 'label')).toBe(true);
    expect(on(r, '#p3').filter((f) => f.data.engine === 'forms')).toEqual([]);
  });

  it('confirms a label tied to another field that has its own label, on the field it sits beside (H44)', async () => {
    const r = await scanner.scan(
      page(`<form>
        <div><label for="first">First name</label><input id="first"></div>
        <div><label for="first">Last name</label><input id="f1"></div>
        <div><label for="email">Email</label><input id="email" placeholder="name@example.com"></div>
        <div><label for="p1">Phone</label><label for="p1">(optional)</label><input id="p1"></div>
        <div><label for="p2">Town</label><input id="p2"></div>
      </form>`),
      withAxe,
    );
    const f = rule(r, 'form-label-wrong-field', '#f1');
    expect(f).toMatchObject({ type: 'confirmed', wcagCriterion: '1.3.1', wcagCriteria: ['1.3.1', '4.1.2'] });
    expect(f!.failureSummary).toContain('"Last name"');
    expect(f!.failureSummary).toContain('#first');
    // Two labels of one field side by side, and a field with one label: nothing wired wrong.
    for (const id of ['#first', '#email', '#p1', '#p2']) expect(rule(r, 'form-label-wrong-field', id), id).toBeUndefined();
  });

  it('confirms a hint that is the description of another field than the one it sits before', async () => {
    const r = await scanner.scan(
      page(`<form>
        <label for="a">Date of birth</label>
        <p id="ha">For example, 27 3 2007.</p>
        <input id="a" aria-describedby="hb">
        <label for="b">Passport number</label>
        <p id="hb">Up to 9 characters.</p>
        <input id="b" aria-describedby="ha">
      </form>`),
      formsOnly,
    );
    for (const id of ['#a', '#b']) {
      expect(rule(r, 'form-hint-not-associated', id), id).toMatchObject({ type: 'confirmed', wcagCriterion: '1.3.1' });
    }
    expect(rule(r, 'form-hint-not-associated', '#a')!.failureSummary).toContain('#b');
  });

  it('reports required fields marked only visually', async () => {
    const r = await scanner.scan(
      page(`<form>
        <label for="f1">Name *</label><input id="f1">
        <label for="f2">Email</label> <span>*</span> <input id="f2" type="email">
        <label for="p1">Phone *</label><input id="p1" required>
        <label for="p2">Town *</label><input id="p2" aria-required="true">
        <label for="p3">Street (required)</label><input id="p3">
        <label for="p4">Notes</label><input id="p4">
        <fieldset><legend>Colour</legend>
          <label><input type="radio" name="c" id="p5" required>Blue</label><label><input type="radio" name="c" id="p6">Red</label>
        </fieldset>
      </form>`),
      formsOnly,
    );
    expect(rule(r, 'form-required-visual-only', '#f1')).toMatchObject({ type: 'needs_review', wcagCriterion: '1.3.1' });
    expect(rule(r, 'form-required-visual-only', '#f1')!.failureSummary).toContain('no text on the page explains the asterisk');
    expect(rule(r, 'form-required-visual-only', '#f2')).toMatchObject({ type: 'needs_review' });
    for (const id of ['#p1', '#p2', '#p3', '#p4', '#p5', '#p6']) expect(rule(r, 'form-required-visual-only', id), id).toBeUndefined();
  });

  it('reports error messages that do not identify their field or the error (3.3.1)', async () => {
    const r = await scanner.scan(
      page(`
        <form id="a">
          <div id="m1">Please fill the field correctly.</div>
          <label for="age">Age (years)</label><input id="age" type="number">
        </form>
        <form id="b">
          <label for="age2">Age (years)</label><input id="age2" type="number" aria-describedby="ok1">
          <span id="ok1">Invalid value for age. Age must be at least 1.</span>
        </form>
        <form id="c">
          <label for="age3">Age (years)</label><input id="age3" type="number" aria-describedby="m2">
          <span id="m2">Invalid value for age.</span>
        </form>
        <form id="d">
          <label for="age4">Age (years)</label><input id="age4" type="number">
          <span id="m3" aria-hidden="true">Invalid value for age. Age must be at least 1.</span>
        </form>
        <form id="e">
          <p id="i1">Fields marked * are required</p>
          <label for="nm">Name *</label><input id="nm" required>
        </form>
        <form id="f">
          <label for="inv">Email</label><input id="inv" type="email" aria-invalid="true">
          <label for="inv2">Phone</label><input id="inv2" type="tel" aria-invalid="true" aria-errormessage="e2"><span id="e2">Enter a phone number, like 01632 960 001</span>
        </form>`),
      formsOnly,
    );
    expect(rule(r, 'form-error-message', '#m1')).toMatchObject({ type: 'needs_review', wcagCriterion: '3.3.1' });
    expect(rule(r, 'form-error-message', '#m1')!.data.problems).toEqual(['names-no-field', 'not-descriptive']);
    expect(rule(r, 'form-error-message', '#m2')!.data.problems).toEqual(['not-descriptive']);
    expect(rule(r, 'form-error-message', '#m3')!.data.problems).toEqual(['hidden-from-at']);
    expect(r.findings.filter((f) => f.elementSelector === '#ok1' || f.elementSelector === '#i1')).toEqual([]);
    expect(rule(r, 'form-invalid-no-message', '#inv')).toMatchObject({ type: 'needs_review', wcagCriterion: '3.3.1' });
    expect(rule(r, 'form-invalid-no-message', '#inv2')).toBeUndefined();
  });

  it('reports radio and checkbox groups without a name, and fieldsets without a legend (1.3.1)', async () => {
    const r = await scanner.scan(
      page(`<form>
        <h4>Do you have an account?</h4>
        <label><input type="radio" name="acc" id="f1" value="y">Yes</label><label><input type="radio" name="acc" value="n">No</label>
        <p>Waste types</p>
        <label><input type="checkbox" name="waste" id="f2">Animal</label><label><input type="checkbox" name="waste">Mines</label>
        <fieldset><legend>Colour</legend><label><input type="radio" name="col" id="p1">Blue</label><label><input type="radio" name="col">Red</label></fieldset>
        <div role="radiogroup" aria-label="Size"><label><input type="radio" name="size" id="p2">S</label><label><input type="radio" name="size">L</label></div>
        <label><input type="checkbox" name="terms" id="p3">I accept the terms</label>
        <fieldset id="fs1"><label><input type="radio" name="pet" id="p4">Cat</label><label><input type="radio" name="pet">Dog</label></fieldset>
        <fieldset id="fs2"><legend></legend><label>Town <input id="t"></label></fieldset>
        <fieldset id="fs3"><legend>Address</legend><label>Street <input id="s"></label></fieldset>
      </form>`),
      formsOnly,
    );
    expect(rule(r, 'form-group-unnamed', '#f1')).toMatchObject({ type: 'needs_review', wcagCriterion: '1.3.1' });
    expect(rule(r, 'form-group-unnamed', '#f1')!.failureSummary).toContain('2 radio buttons');
    expect(rule(r, 'form-group-unnamed', '#f2')).toMatchObject({ type: 'needs_review' });
    for (const id of ['#p1', '#p2', '#p3', '#p4']) expect(rule(r, 'form-group-unnamed', id), id).toBeUndefined();
    expect(rule(r, 'form-fieldset-unnamed', '#fs1')!.failureSummary).toContain('no legend');
    expect(rule(r, 'form-fieldset-unnamed', '#fs2')!.failureSummary).toContain('legend is empty');
    expect(rule(r, 'form-fieldset-unnamed', '#fs3')).toBeUndefined();
  });

  it('reports labels repeated in one context, vague labels and placeholder-only fields', async () => {
    const r = await scanner.scan(
      page(`
        <form><label for="d1">Name</label><input id="d1"><label for="d2">Name</label><input id="d2"></form>
        <form>
          <h2>Shipping</h2><label for="s1">Street</label><input id="s1">
          <h2>Billing</h2><label for="s2">Street</label><input id="s2">
          <fieldset><legend>Home</legend><label for="t1">Town</label><input id="t1"></fieldset>
          <fieldset><legend>Work</legend><label for="t2">Town</label><input id="t2"></fieldset>
        </form>
        <form>
          <input id="v1" aria-label="Field">
          <label for="v2">First name</label><input id="v2">
          <input id="ph1" type="search" placeholder="Search">
          <label for="ph2">Search</label><input id="ph2" type="search" placeholder="e.g. passport">
        </form>`),
      formsOnly,
    );
    for (const id of ['#d1', '#d2']) expect(rule(r, 'form-label-not-unique', id), id).toMatchObject({ type: 'needs_review', wcagCriterion: '2.4.6' });
    for (const id of ['#s1', '#s2', '#t1', '#t2']) expect(rule(r, 'form-label-not-unique', id), id).toBeUndefined();
    expect(rule(r, 'form-label-not-descriptive', '#v1')).toMatchObject({ type: 'needs_review', wcagCriterion: '2.4.6' });
    expect(rule(r, 'form-label-not-descriptive', '#v2')).toBeUndefined();
    expect(rule(r, 'form-placeholder-only', '#ph1')).toMatchObject({ type: 'needs_review', wcagCriterion: '3.3.2' });
    expect(rule(r, 'form-placeholder-only', '#ph2')).toBeUndefined();
  });

  it('reports hints between a label and its field that the field does not reference, and fields far from their label', async () => {
    const r = await scanner.scan(
      page(`<form>
        <label for="f1">National Insurance number</label>
        <p>It's on your last payslip. For example, JH 21 90 0A.</p>
        <input id="f1">
        <label for="p1">Passport number</label>
        <p id="h2">Up to 9 characters.</p>
        <input id="p1" aria-describedby="h2">
        <label for="p2">Phone</label><input id="p2">
        <div style="width:900px;overflow:hidden"><label for="g1" style="float:left">Country</label><input id="g1" style="float:right"></div>
        <div style="width:900px"><label for="g2">City</label> <input id="g2"></div>
      </form>`),
      formsOnly,
    );
    expect(rule(r, 'form-label-far-from-field', '#g1')).toMatchObject({ type: 'needs_review', wcagCriterion: '3.3.2' });
    expect(rule(r, 'form-label-far-from-field', '#g2')).toBeUndefined();
    expect(rule(r, 'form-hint-not-associated', '#f1')).toMatchObject({ type: 'needs_review', wcagCriterion: '1.3.1' });
    expect(rule(r, 'form-hint-not-associated', '#f1')!.failureSummary).toContain('last payslip');
    expect(rule(r, 'form-hint-not-associated', '#p1')).toBeUndefined();
    expect(rule(r, 'form-hint-not-associated', '#p2')).toBeUndefined();
  });

  it('finds nothing on a well-built form, and survives odd pages', async () => {
    const clean = await scanner.scan(
      page(`<form>
        <p>Fields marked * are required.</p>
        <label for="n">Full name *</label><input id="n" required autocomplete="name">
        <label for="e">Email</label><p id="eh">We only use it to reply.</p><input id="e" type="email" aria-describedby="eh">
        <fieldset><legend>Contact by</legend><label><input type="radio" name="by" value="e">Email</label><label><input type="radio" name="by" value="p">Phone</label></fieldset>
        <label><input type="checkbox" name="news"> Send me news</label>
        <button type="submit">Send</button>
      </form>`),
      withAxe,
    );
    expect(clean.findings.filter((f) => f.data.engine === 'forms')).toEqual([]);
    const odd = await scanner.scan(
      page(`<iframe srcdoc="<input>"></iframe><div id="host"></div><svg><text>x</text></svg><select></select>`, `<script>
        addEventListener('DOMContentLoaded', () => { const r = document.getElementById('host').attachShadow({ mode: 'open' }); r.innerHTML = '<label>In shadow</label><input title="t">'; });
      </script>`),
      formsOnly,
    );
    expect(odd.engines.find((e) => e.engine === 'forms')!.error).toBeUndefined();
  });

  it('has a guide for every rule it reports', () => {
    for (const id of Object.values(FORM_RULES)) expect(GUIDES[id], id).toMatchObject({ who: expect.any(String), fix: expect.any(String) });
  });
});
