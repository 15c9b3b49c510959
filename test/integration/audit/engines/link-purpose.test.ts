import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { html } from '../../../support/static-server.ts';
import { ofRule, openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Links fixture</title>${head}</head><body>${body}</body></html>`;
const scan = (body: string, head = '') => scanner.scan(page(body, head), { engines: [axeEngine] });

/** The findings of a rule, by selector. */
function at(result: ScannedResult, ruleId: string): Record<string, string> {
  return Object.fromEntries(ofRule(result, ruleId).map((f) => [f.elementSelector, f.type]));
}

const GENERIC = 'link-text-generic';
const IDENTICAL = 'link-identical-name-different-purpose';

describe('link-text-generic (2.4.4, ACT 5effbb)', () => {
  it('confirms a vague name with no context at all, asks for review when a context or a title may give the purpose', async () => {
    const r = await scan(`
      <div><a id="alone" href="/a">Click here</a></div>
      <a id="in-body" href="#desc">More</a>
      <p id="desc">This product consists of several web pages.</p>
      <div id="div-link" role="link" tabindex="0" onclick="location='/b'">Read more</div>
      <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><a id="svg-go" href="/c"><text x="5" y="20">Go</text></a></svg>
      <p>Our 2025 annual report is out. <a id="sentence" href="/report">Read more</a></p>
      <table><tr><th>Books</th></tr><tr><td><a id="cell" href="/ulysses.html">Download</a></td></tr></table>
      <h2 id="rule">Button has accessible name</h2>
      <div><a id="described" href="/rule#x" aria-describedby="rule">Details</a></div>
      <div><a id="titled" href="/guide" title="The style guide">Here</a></div>
      <div><a id="full-stop" href="https://www.gov.uk/">.</a></div>
      <p>Visit the GOV.UK website <a id="full-stop-ctx" href="https://www.gov.uk/">.</a></p>
      <ul><li><a id="format" href="/u.epub">EPUB</a></li><li><a id="format2" href="/u.txt">Plain text</a></li></ul>
    `);
    expect(at(r, GENERIC)).toEqual({
      '#alone': 'confirmed',
      '#in-body': 'confirmed',
      '#div-link': 'confirmed',
      '#svg-go': 'confirmed',
      '#full-stop': 'confirmed',
      '#sentence': 'needs_review',
      '#cell': 'needs_review',
      '#described': 'needs_review',
      '#titled': 'needs_review',
      '#full-stop-ctx': 'needs_review',
      '#format': 'needs_review',
      '#format2': 'needs_review',
    });
    const alone = ofRule(r, GENERIC).find((f) => f.elementSelector === '#alone')!;
    expect(alone.wcagCriterion).toBe('2.4.4');
    expect(alone.failureSummary).toContain('"Click here"');
    expect(alone.data.element).toMatchObject({ text: 'Click here', href: '/a' });
    const sentence = ofRule(r, GENERIC).find((f) => f.elementSelector === '#sentence')!;
    expect(sentence.failureSummary).toContain('Our 2025 annual report is out.');
    expect(ofRule(r, GENERIC).find((f) => f.elementSelector === '#cell')!.failureSummary).toContain('Books');
  });

  it('does not flag "next", "previous", "more" or arrows in navigation, pagination or with rel, nor names that are descriptive', async () => {
    const r = await scan(
      `
      <div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul>
        <li class="right"><a id="sphinx-next" href="whatsnew/index.html" title="What's new in IPython" accesskey="N">next</a> |</li>
        <li class="right"><a id="sphinx-prev" href="index.html" title="IPython Documentation" accesskey="P">previous</a> |</li></ul></div>
      <nav><a id="nav-more" href="/more">More</a></nav>
      <div><a id="rel-next" href="/page/3" rel="next">Next »</a></div>
      <div><a id="doc-rel" href="/chapter/2">Previous</a></div>
      <ul class="pagination"><li><a id="arrow" href="/page/4">»</a></li></ul>
      <div aria-label="Pagination"><a id="labelled" href="/page/1">First</a></div>
      <ul><li>Ulysses<ul><li><a id="nested" href="/u.html">HTML</a></li></ul></li></ul>
      <table><tr><th>Ulysses</th></tr><tr><td><a id="header" href="/u.epub">EPUB</a></td></tr></table>
      <table><tr><td>Download Ulysses in <a id="in-cell" href="/u.txt">Plain text</a></td></tr></table>
      <div><a id="descriptive" href="/r">Read the 2025 annual report</a></div>
      <div><a id="aria-label" href="/r" aria-label="Read more about polar bears">Read more</a></div>
      <div><a id="url" href="https://www.zeromq.org">https://www.zeromq.org</a></div>
      <div><a id="hidden" href="/h" aria-hidden="true" tabindex="-1">Click here</a></div>
      <div><a id="button" href="/b" role="button">More</a></div>
      <div><a id="no-href">Click here</a></div>
    `,
      '<link rel="prev" href="/chapter/2">',
    );
    expect(at(r, GENERIC)).toEqual({});
  });
});

describe('link-identical-name-different-purpose (2.4.4, ACT fd3a94)', () => {
  it('confirms the same name and context asking the same page with other parameters', async () => {
    const r = await scan(`
      <p>To get in touch with us, you can either <a id="chat" href="/contact?page=1">contact us</a> via chat or
        <a id="phone" href="/contact?page=2">contact us</a> by phone.</p>
      <div><span style="display:flex"><a id="icon-a" href="/contact?page=3">Contact Us</a><a id="icon-b" href="/contact?page=4">Contact Us</a></span></div>
    `);
    expect(at(r, IDENTICAL)).toEqual({ '#chat': 'confirmed', '#phone': 'confirmed', '#icon-a': 'confirmed', '#icon-b': 'confirmed' });
    const f = ofRule(r, IDENTICAL).find((x) => x.elementSelector === '#chat')!;
    expect(f.wcagCriterion).toBe('2.4.4');
    expect(f.failureSummary).toContain('/contact?page=2');
    expect(f.helpUrl).toContain('link-purpose-in-context');
  });

  it('asks for review where the other page may be equivalent, the contexts are only alike, or a script decides', async () => {
    const r = await scan(`
      <p>Learn more (<a id="about" href="/about/contact.html">Contact us</a>) and get in touch (<a id="careers" href="/careers/contact.html">Contact us</a>)</p>
      <p>W3C pages for ACT:</p><p><a id="site-a" href="https://act-rules.github.io/">ACT rules</a></p>
      <p>Community group for ACT:</p><p><a id="site-b" href="https://www.w3.org/community/act-r/">ACT rules</a></p>
      <div>Get the form: <a id="twin-1" href="/form?lang=en">Form</a></div>
      <div>Get the form: <a id="twin-2" href="/form?lang=fr">Form</a></div>
      <p><span id="js-1" role="link" tabindex="0" onclick="location='/help?topic=1'">Help</span>
         <span id="js-2" role="link" tabindex="0" onclick="location='/help?topic=2'">Help</span></p>
      <p>Sections: <a id="sec-a" href="#intro">Jump</a> <a id="sec-b" href="#end">Jump</a></p>
      <h2 id="intro">Intro</h2><h2 id="end">End</h2>
    `);
    expect(at(r, IDENTICAL)).toEqual({
      '#about': 'needs_review',
      '#careers': 'needs_review',
      '#site-a': 'needs_review',
      '#site-b': 'needs_review',
      '#twin-1': 'needs_review',
      '#twin-2': 'needs_review',
      '#js-1': 'needs_review',
      '#js-2': 'needs_review',
      '#sec-a': 'needs_review',
      '#sec-b': 'needs_review',
    });
  });

  it('leaves alone links that go to the same place, or whose contexts tell them apart', async () => {
    const r = await scan(`
      <p><a href="/index.html">Contact us</a> <a href="/">Contact us</a> <a href="/?utm_source=footer">Contact us</a></p>
      <p><a href="/docs/">Docs</a> or <a href="/docs">Docs</a></p>
      <ul><li>To learn more about us: <a href="/a">Contact us</a></li><li>To get in touch with us: <a href="/b">Contact us</a></li></ul>
      <div><a href="https://www.w3.org/WAI/">Read more</a> about the W3C WAI</div>
      <div><a href="https://www.w3.org/International/">Read more</a> about the W3C internationalization</div>
      <nav><ul><li><a href="/products">Products</a><ul><li><a href="/products/overview">Overview</a></li></ul></li>
        <li><a href="/services">Services</a><ul><li><a href="/services/overview">Overview</a></li></ul></li></ul></nav>
      <table><tr><th>Book</th><th>Get</th></tr>
        <tr><th scope="row">Ulysses</th><td><a href="/get?id=1">Download</a></td></tr>
        <tr><th scope="row">Dubliners</th><td><a href="/get?id=2">Download</a></td></tr></table>
      <p>We are on social media: <a href="https://act-rules.github.io/">ACT rules</a>
        <a aria-hidden="true" tabindex="-1" href="https://www.w3.org/community/act-r/">ACT rules</a></p>
      <p><a href="javascript:void(0)">Open</a> <a href="/open">Open</a></p>
    `);
    expect(at(r, IDENTICAL)).toEqual({});
  });

  it('compares links within one document only: a frame is another context', async () => {
    scanner.server.route(
      '/frame.html',
      html(page('<p><a id="in-frame" href="/b?x=1">Contact us</a></p><div><a id="help-1" href="/c?y=1">Help</a> <a id="help-2" href="/c?y=2">Help</a></div>')),
    );
    const r = await scan(`<p><a id="in-top" href="/a?x=3">Contact us</a></p><iframe src="/frame.html" title="Contact"></iframe>`);
    // Same name, same context text, different documents: not compared (neither #in-top nor
    // #in-frame). Within the frame, its own pair is found.
    expect(at(r, IDENTICAL)).toEqual({ 'iframe >>> #help-1': 'confirmed', 'iframe >>> #help-2': 'confirmed' });
  });

  it('survives odd links: bad addresses, detached headers, links in shadow DOM', async () => {
    const r = await scan(`
      <p><a id="bad-1" href="http://[bad">Report</a> <a id="bad-2" href="http://[bad2">Report</a></p>
      <table><tr><td headers="missing"><a href="/x">Get</a></td><td headers="missing"><a href="/y">Get</a></td></tr></table>
      <div id="host"></div>
      <script>
        const root = document.getElementById('host').attachShadow({ mode: 'open' });
        root.innerHTML = '<p><a id="s1" href="/s?n=1">Shadow link</a> <a id="s2" href="/s?n=2">Shadow link</a></p>';
      </script>
    `);
    const found = at(r, IDENTICAL);
    expect(found['#bad-1']).toBeUndefined();
    expect(Object.entries(found).filter(([k]) => k.includes('s1') || k.includes('s2')).map(([, v]) => v)).toEqual(['confirmed', 'confirmed']);
  });
});

describe('link-href-no-destination (4.1.2)', () => {
  it('confirms a link that runs a script acting on the page, asks for review of one that goes nowhere by itself, passes real addresses and buttons', async () => {
    const r = await scan(`
      <main>
        <h1>Links</h1>
        <a id="js" href="javascript:alert('Hello world!')">Press me!</a>
        <a id="hash-onclick" href="#" onclick="document.getElementById('panel').hidden = false; return false;">Show the panel</a>
        <div id="panel" hidden>Panel</div>
        <a id="hash" href="#">Do something</a>
        <a id="void" href="javascript:void(0)">Open</a>
        <a id="as-button" role="button" href="#" onclick="return false">Toggle</a>
        <a id="top" href="#top">Back to top</a>
        <a id="route" href="#/settings">Settings</a>
        <a id="go" href="javascript:location.href='/a'">Go</a>
        <a id="real" href="/about">About us</a>
        <a id="hidden" href="#" style="display:none">Hidden</a>
        <nav><ul><li><a id="toc" href="#">Links</a><ul><li><a href="#usage">Usage</a></li></ul></li></ul></nav>
        <a id="back" href="#">Back to top</a>
      </main>
    `);
    expect(at(r, 'link-href-no-destination')).toEqual({ '#js': 'confirmed', '#hash-onclick': 'confirmed', '#hash': 'needs_review', '#void': 'needs_review' });
    const js = ofRule(r, 'link-href-no-destination').find((f) => f.elementSelector === '#js')!;
    expect(js.wcagCriterion).toBe('4.1.2');
    expect(js.failureSummary).toContain('acts as a button');
  });
});
