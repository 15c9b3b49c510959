import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { structureEngine } from '../../../../src/audit/engines/structure/structure.engine.ts';
import { STRUCTURE_GUIDES as GUIDES } from '../../../../src/shared/rules/structure.ts';
import { ofRule, openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';

let scanner: FixtureScanner;
beforeAll(async () => {
  scanner = await openFixtureScanner();
});
afterAll(async () => {
  await scanner?.close();
});

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Structure fixture</title><style>body{font:16px/1.5 sans-serif}${head}</style></head><body><main>${body}</main></body></html>`;

const scan = (body: string, head = '') => scanner.scan(page(body, head), { engines: [structureEngine] });

/** The findings of a rule, by selector. */
function at(result: ScannedResult, ruleId: string): Record<string, string> {
  return Object.fromEntries(ofRule(result, ruleId).map((f) => [f.elementSelector, f.type]));
}

const DATA_ROWS = '<tr><td>Jackie</td><td>5</td><td>April 5</td></tr><tr><td>Beth</td><td>8</td><td>January 14</td></tr>';

describe('structure engine: tables', () => {
  it('finds data tables without header cells, and leaves tables with headers or no data alone', async () => {
    const r = await scan(`
      <table id="thead-td"><thead><tr><td>Name</td><td>Age</td><td>Birthday</td></tr></thead><tbody>${DATA_ROWS}</tbody></table>
      <table id="bold-row"><tr><td><b>Name</b></td><td><b>Age</b></td><td><b>Birthday</b></td></tr>${DATA_ROWS}</table>
      <table id="numbers"><tr><td>Item</td><td>Q1</td><td>Q2</td></tr><tr><td>Lunch</td><td>6.99</td><td>7.50</td></tr><tr><td>Tea</td><td>1.20</td><td>1.30</td></tr></table>
      <table id="with-th"><thead><tr><th>Name</th><th>Age</th><th>Birthday</th></tr></thead><tbody>${DATA_ROWS}</tbody></table>
      <table id="role-cols"><thead><tr><td role="columnheader">Name</td><td role="columnheader">Age</td><td role="columnheader">Birthday</td></tr></thead><tbody>${DATA_ROWS}</tbody></table>
      <table id="presentational" role="presentation"><thead><tr><td>Name</td><td>Age</td><td>Birthday</td></tr></thead><tbody>${DATA_ROWS}</tbody></table>
      <table id="one-cell"><tr><td>12:00</td></tr></table>
      <table id="plain-grid"><tr><td>Apples</td><td>Pears</td></tr><tr><td>Plums</td><td>Figs</td></tr><tr><td>Kiwis</td><td>Limes</td></tr></table>
      <table id="bold-numbers"><tr><td><b>Item</b></td><td><b>Q1</b></td><td><b>Q2</b></td></tr><tr><td>Lunch</td><td>6.99</td><td>7.50</td></tr><tr><td>Tea</td><td>1.20</td><td>1.30</td></tr></table>
    `);
    expect(at(r, 'table-no-headers')).toEqual({ '#thead-td': 'confirmed', '#bold-row': 'needs_review', '#numbers': 'needs_review', '#bold-numbers': 'confirmed' });
    const f = ofRule(r, 'table-no-headers').find((x) => x.elementSelector === '#thead-td')!;
    expect(f.wcagCriterion).toBe('1.3.1');
    expect(f.failureSummary).toContain('3 rows × 3 columns');
    expect(f.helpUrl).toContain('info-and-relationships');
  });

  it('finds layout tables with data markup, layout tables to check, nested data tables and empty header cells', async () => {
    const layout = (id: string, extra: string, attrs = '') =>
      `<table id="${id}" ${attrs}>${extra}<tr><td><ul><li><a href="#a">Home</a></li><li><a href="#b">About us</a></li></ul></td><td><h2>Welcome</h2><p>Who we are and what we do.</p></td></tr></table>`;
    const r = await scan(`
      ${layout('layout-th', '<tr><th>Menu</th><th>Content</th></tr>')}
      ${layout('layout-plain', '')}
      ${layout('layout-presentation', '<tr><th>Menu</th><th>Content</th></tr>', 'role="presentation"')}
      <table id="outer"><tr><th>Item</th><th>Cost</th></tr><tr><th>Holiday
        <table id="inner"><tr><th>Item</th><th>Cost</th></tr><tr><td>Travel</td><td>£109.99</td></tr></table></th><td>£609.98</td></tr></table>
      <table id="corner"><tr><th id="empty-th"></th><th scope="col">Age</th></tr><tr><th scope="row">Jackie</th><td>5</td></tr></table>
      <table id="corner-ok"><tr><th id="hidden-text-th"><span style="position:absolute;clip:rect(0 0 0 0)">Name</span></th><th scope="col">Age</th></tr><tr><th scope="row">Beth</th><td>8</td></tr></table>
      <table id="corner-td"><tr><td></td><th scope="col">Age</th></tr><tr><th scope="row">Beth</th><td>8</td></tr></table>
    `);
    expect(at(r, 'layout-table-semantics')).toEqual({ '#layout-th': 'needs_review' });
    expect(at(r, 'layout-table')).toEqual({ '#layout-plain': 'needs_review' });
    expect(ofRule(r, 'layout-table')[0]!.wcagCriterion).toBe('1.3.2');
    expect(at(r, 'table-nested')).toEqual({ '#inner': 'needs_review' });
    expect(at(r, 'table-empty-header')).toEqual({ '#empty-th': 'needs_review' });
  });
});

describe('structure engine: tables with several levels of headers and ragged rows (issue 43)', () => {
  it('asks for review of multi-level headers without headers attributes and of rows of unequal width, counting colspan and rowspan', async () => {
    const r = await scan(`
      <table id="two-header-rows"><tr><th colspan="2">2025</th><th colspan="2">2026</th></tr>
        <tr><th>Q1</th><th>Q2</th><th>Q1</th><th>Q2</th></tr><tr><td>4</td><td>5</td><td>6</td><td>7</td></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>
      <table id="double-row-headers"><tr><th>Region</th><th>Town</th><th>People</th></tr>
        <tr><th>North</th><th>Leeds</th><td>800,000</td></tr><tr><th>South</th><th>Bath</th><td>90,000</td></tr></table>
      <table id="wide-row"><tr><th>Name</th><th>Age</th></tr><tr><td>Jackie</td><td>5</td><td>April 5</td></tr><tr><td>Beth</td><td>8</td></tr></table>
      <table id="tied"><tr><th id="y25" colspan="2">2025</th></tr><tr><th id="q1">Q1</th><th id="q2">Q2</th></tr>
        <tr><td headers="y25 q1">4</td><td headers="y25 q2">5</td></tr></table>
      <table id="rowspans"><tr><th>Day</th><th>Slot</th><th>Talk</th></tr><tr><td rowspan="2">Mon</td><td>9:00</td><td>Opening</td></tr>
        <tr><td>10:00</td><td>Keynote</td></tr><tr><td>Tue</td><td>9:00</td><td>Panel</td></tr></table>
      <table id="one-level"><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody><tr><th scope="row">Jackie</th><td>5</td></tr><tr><th scope="row">Beth</th><td>8</td></tr></tbody></table>
    `);
    expect(at(r, 'table-complex-headers')).toEqual({ '#two-header-rows': 'needs_review', '#double-row-headers': 'needs_review' });
    expect(at(r, 'table-ragged-rows')).toEqual({ '#wide-row': 'needs_review' });
    const ragged = ofRule(r, 'table-ragged-rows')[0]!;
    expect(ragged.wcagCriterion).toBe('1.3.1');
    expect(ragged.failureSummary).toContain('wider than the header row');
    expect(ofRule(r, 'table-complex-headers').find((f) => f.elementSelector === '#double-row-headers')!.failureSummary).toContain('2 header cells opening a row');
  });
});

describe('structure engine: headings and lists', () => {
  it('finds text styled as a heading that is not one', async () => {
    const r = await scan(
      `
      <div id="fake" class="fake-heading">Fake Heading</div>
      <p>This paragraph is preceded by a div that is styled to look like a heading.</p>
      <h2 id="real" class="fake-heading">Real Heading</h2>
      <p>This paragraph is preceded by a real heading, which is what we want here.</p>
      <p id="lead"><strong>Note</strong></p>
      <p>Bold text of body size leading a paragraph is emphasis, not necessarily a heading.</p>
      <p id="quote" class="big">We had a great time at the fair this year and we will be back soon with friends and family.</p>
      <p>A long line in a large font is a pull quote or an intro, not a heading.</p>
      <nav><div id="nav-title" class="fake-heading">Site menu</div><p>Links to every part of the site are listed here.</p></nav>
      <p id="small-print-lead">Terms</p>
      <p class="small">The terms and conditions in small print follow this line and are long.</p>
    `,
      '.fake-heading{font-size:1.5em;font-weight:bold;margin:.67em 0}.big{font-size:1.5em}.small{font-size:11px}',
    );
    expect(at(r, 'visual-heading-not-marked')).toEqual({ '#fake': 'needs_review' });
    expect(ofRule(r, 'visual-heading-not-marked')[0]!.failureSummary).toMatch(/24px bold, 1\.5× the 16px text/);
  });

  it('finds lines typed as a list, and leaves real lists, code and prose alone', async () => {
    const r = await scan(`
      <div id="br-list">* apple <br> * orange <br> * banana <br> * pear</div>
      <div id="numbered"><p>1. Fill in the form.</p><p>2. Check your answers.</p><p>3. Send it.</p><p>Thank you.</p></div>
      <ul id="real"><li>apple</li><li>orange</li><li>banana</li></ul>
      <pre id="code">* one
* two
* three</pre>
      <div id="two-lines">- one<br>- two</div>
      <div id="prose"><p>Paragraph one of the story.</p><p>Paragraph two of the story.</p><p>Paragraph three.</p></div>
    `);
    expect(at(r, 'list-not-marked')).toEqual({ '#br-list': 'needs_review', '#numbered': 'needs_review' });
    expect(ofRule(r, 'list-not-marked').find((f) => f.elementSelector === '#br-list')!.data.list).toMatchObject({ marker: '*', items: 4 });
  });
});

describe('structure engine: images and sensory references', () => {
  const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';
  it('finds file-name alt texts, hidden images with text and SVG images of text', async () => {
    scanner.server.route('/img/bbc-blocks-dark.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/gif' });
      res.end(Buffer.from(GIF.split(',')[1]!, 'base64'));
    });
    const svg = (inner: string) => `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='80' height='20'>${inner}</svg>`)}`;
    const r = await scan(`
      <img id="own-name" alt="bbc-blocks-dark.png" src="/img/bbc-blocks-dark.png" width="40" height="20">
      <img id="camera" alt="IMG_1234" src="${GIF}" width="20" height="20">
      <img id="good" alt="BBC" src="/img/bbc-blocks-dark.png" width="40" height="20">
      <img id="labelled" alt="bbc-blocks-dark.png" aria-label="BBC blocks" src="/img/bbc-blocks-dark.png" width="40" height="20">
      <a href="/img/bbc-blocks-dark.png" download>Download <img id="download" alt="bbc-blocks-dark.png" src="/img/bbc-blocks-dark.png" width="40" height="20"></a>
      <img id="presentation-alt" alt="Decorative line clipart" role="presentation" src="${GIF}" width="20" height="20">
      <img id="presentation-empty" alt="" role="presentation" src="${GIF}" width="20" height="20">
      <img id="empty-alt-title" alt="" title="BBC" src="${GIF}" width="20" height="20">
      <img id="svg-text" alt="WCAG Rocks" src="${svg("<text x='0' y='15'>WCAG Rocks</text>")}" width="80" height="20">
      <img id="svg-shape" alt="A circle" src="${svg("<circle cx='10' cy='10' r='8'/>")}" width="80" height="20">
    `);
    expect(at(r, 'image-alt-filename')).toEqual({ '#own-name': 'confirmed', '#camera': 'needs_review' });
    expect(at(r, 'image-hidden-has-alt')).toEqual({ '#presentation-alt': 'needs_review', '#empty-alt-title': 'needs_review' });
    expect(at(r, 'image-of-text')).toEqual({ '#svg-text': 'needs_review' });
    expect(ofRule(r, 'image-of-text')[0]!.wcagCriterion).toBe('1.4.5');
  });

  it('finds instructions that point at things only by position or shape', async () => {
    const fail = await scan(`
      <p id="menu-right">Find the menu on the right, to navigate</p>
      <p id="star">More examples can be found when you look underneath the star</p>
      <p id="beep">Start speaking when you hear the beep.</p>
      <p id="in-red">Required fields are marked in red.</p>
      <p id="track">We are on the right track with this release, and the table below shows why.</p>
      <p id="offscreen" style="position:absolute;top:-9999em">Find the sidebar on the left for more.</p>
      <ul><li><a href="#c">Contact</a></li></ul>
    `);
    expect(at(fail, 'sensory-reference')).toEqual({ '#menu-right': 'needs_review', '#star': 'needs_review', '#beep': 'needs_review', '#in-red': 'needs_review' });
    expect(ofRule(fail, 'sensory-reference')[0]!.data.sensory).toMatchObject({ noun: 'menu', kind: 'position' });
    const pass = await scan(`
      <p id="labelled">Click the button labelled "howdy", on the right, for a surprise</p>
      <p id="nav-right">Find the navigation on the right, for the other links</p>
      <nav><ul><li><a href="#c">Contact</a></li></ul></nav>
      <p id="round">Click the round button, for a surprise</p>
      <p id="beep-ok">Start speaking when you hear the beep or see the light turn on.</p>
      <p id="red-ok">Required fields are marked in red and with an asterisk (*).</p>
      <button>Round button</button><button>Other</button>
    `);
    expect(ofRule(pass, 'sensory-reference')).toEqual([]);
  });
});

describe('structure engine: content hidden, generated or used for spacing', () => {
  const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';
  it('finds CSS generated text that carries meaning, and leaves quotes, icons and counters alone', async () => {
    const r = await scan(
      `
      <p class="fact" id="fact">The Eiffel Tower is in Paris.</p>
      <p class="opinion" id="opinion">It is the finest tower.</p>
      <blockquote id="quote">To be or not to be.</blockquote>
      <span class="icon" id="icon">Home</span>
      <ol class="steps"><li id="step">First</li><li>Second</li></ol>
      <a class="ext" id="ext" href="#x">Docs</a>
      <p class="nb" id="print-only">Printed</p>
    `,
      `.fact::before{content:"Fact: "}.opinion::before{content:"Opinion: "}blockquote::before{content:open-quote}blockquote::after{content:"\u201D"}
       .icon::before{content:"\\e900";font-family:icomoon}.steps{counter-reset:s}.steps li::before{counter-increment:s;content:counter(s) ". "}
       .ext::after{content:" \\2192"}@media print{.nb::after{content:" (see page 2)"}}`,
    );
    expect(at(r, 'css-generated-content')).toEqual({ '#fact': 'needs_review', '#opinion': 'needs_review' });
    const f = ofRule(r, 'css-generated-content')[0]!;
    expect(f.wcagCriterion).toBe('1.3.1');
    expect(f.failureSummary).toContain('"Fact:"');
  });

  it('finds visible text hidden by aria-hidden, semantics removed by role=presentation, and screen reader text hidden from all', async () => {
    const fail = await scan(
      `
      <p id="hidden-p" aria-hidden="true">Opening hours are nine to five on weekdays.</p>
      <h2 id="pres-h" role="presentation">Our opening hours</h2>
      <ul id="pres-ul" role="none"><li>Monday</li><li>Tuesday</li></ul>
      <table id="pres-table" role="presentation"><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>9–5</td></tr></table>
      <a id="skip" class="skip-link" href="#content">Skip to content</a>
      <a href="/report.pdf">Annual report <span id="sr-none" class="sr-only">(PDF, 2 MB)</span></a>
      <a href="football.html">Read more <span id="link-part" style="visibility:hidden"> about football</span></a>
      <div class="warning-icon" id="warning-bg">Taking too much of your pension early could leave you short later.</div>
    `,
      `.skip-link{display:none}.sr-only{display:none}.warning-icon{padding-left:40px;background:url(${GIF}) no-repeat left center}`,
    );
    expect(at(fail, 'aria-hidden-content')).toEqual({ '#hidden-p': 'needs_review' });
    expect(at(fail, 'presentation-role-semantics')).toEqual({ '#pres-h': 'needs_review', '#pres-ul': 'needs_review', '#pres-table': 'needs_review' });
    expect(at(fail, 'sr-text-hidden')).toEqual({ '#skip': 'needs_review', '#sr-none': 'needs_review', '#link-part': 'needs_review' });
    expect(ofRule(fail, 'sr-text-hidden').find((f) => f.elementSelector === '#link-part')!.failureSummary).toContain('part of the link text, hidden by visibility:hidden');
    expect(at(fail, 'background-image-informative')).toEqual({ '#warning-bg': 'needs_review' });
    expect(ofRule(fail, 'sr-text-hidden').find((f) => f.elementSelector === '#sr-none')!.failureSummary).toContain('sr-only (display:none)');
    const pass = await scan(
      `
      <p><span aria-hidden="true">5 min read</span><span class="sr-only">5 min read</span></p>
      <button id="close"><span aria-hidden="true">Close this dialog now please</span></button>
      <div aria-hidden="true" style="opacity:0">Nothing to see in this place</div>
      <span aria-hidden="true">★★★</span>
      <table role="presentation"><tr><td>Menu</td><td>Content of the page</td></tr></table>
      <nav><ul role="presentation"><li><a href="#a">A</a></li><li><a href="#b">B</a></li></ul></nav>
      <a class="skip-link" href="#content">Skip to content</a>
      <div style="display:none"><span class="sr-only">Inside a closed menu</span></div>
      <span class="sr-only">Fine: hidden by clipping</span>
      <a href="#m">Menu <span class="d-none d-md-inline">and more</span></a>
      <a href="#n">Next <span style="display:none">Next</span></a>
      <div class="warning-icon">Warning: taking your pension early could leave you short.</div>
    `,
      `.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.skip-link{position:absolute;left:-999px}.skip-link:focus{left:0}.d-none{display:none}.warning-icon{padding-left:40px;background:url(${GIF}) no-repeat left center}`,
    );
    expect(ofRule(pass, 'background-image-informative')).toEqual([]);
    expect(ofRule(pass, 'aria-hidden-content')).toEqual([]);
    expect(ofRule(pass, 'presentation-role-semantics')).toEqual([]);
    expect(ofRule(pass, 'sr-text-hidden')).toEqual([]);
  });

  it('survives a page that breaks the CSS object model it reads', async () => {
    const r = await scan(
      `<p class="fact" id="fact">The Eiffel Tower is in Paris.</p><script>window.CSSStyleRule = undefined; window.CSSMediaRule = 5;</script>`,
      '.fact::before{content:"Fact: "}',
    );
    expect(r.engines.map((e) => [e.engine, e.error])).toEqual([['structure', undefined]]);
    expect(ofRule(r, 'css-generated-content')).toEqual([]);
  });

  it('finds spacer paragraphs and runs of line breaks once per region', async () => {
    const fail = await scan(`
      <p id="first-spacer">&nbsp;</p><p>Text one.</p><p>&nbsp;</p><p>Text two.</p><p><br></p>
      <div>Line<br><br><br><br>Far below</div>
    `);
    expect(at(fail, 'spacer-markup')).toEqual({ '#first-spacer': 'needs_review' });
    expect(ofRule(fail, 'spacer-markup')[0]!.data.spacers).toEqual({ region: 'main', emptyBlocks: 3, brRuns: 1 });
    const pass = await scan(`
      <p>One paragraph.</p><p></p><p>Another paragraph, after an empty one that takes no room.</p>
      <p>&nbsp;</p><div class="clearfix"></div>
      <address>1 High Street<br>London<br>SW1</address><p>Line<br><br>Paragraph break</p>
    `);
    expect(ofRule(pass, 'spacer-markup')).toEqual([]);
  });
});

describe('structure engine: informative images', () => {
  const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';
  it('finds informative images marked decorative, CSS background images alone, placeholder alts and wordy images of text', async () => {
    for (const name of ['acme-logo.png', 'sales-chart.png', 'banner.png', 'holiday.jpg', 'bg.png']) {
      scanner.server.route(`/img/${name}`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/gif' });
        res.end(Buffer.from(GIF.split(',')[1]!, 'base64'));
      });
    }
    const fail = await scan(`
      <div><img id="logo-empty" src="/img/acme-logo.png" alt="" width="120" height="60"></div>
      <figure><img id="chart-none" src="/img/sales-chart.png" role="presentation" width="400" height="300"></figure>
      <div><div id="bg-only" style="width:300px;height:120px;background:url(/img/banner.png) no-repeat"></div></div>
      <img id="placeholder" src="/img/holiday.jpg" alt="image" width="200" height="150">
      <img id="spacer" src="/img/holiday.jpg" alt="spacer" width="200" height="150">
      <input id="click" type="image" src="/img/banner.png" alt="click" width="40" height="40">
      <img id="banner-text" src="/img/banner.png" alt="Summer Sale: 50% Off Everything" width="600" height="120">
      <h2><img id="heading-text" src="/img/banner.png" alt="Our Services" width="300" height="60"></h2>
      <figure><img id="figure-empty" src="/img/holiday.jpg" alt="" width="400" height="300"><figcaption>The beach at Saunton Sands</figcaption></figure>
    `);
    expect(at(fail, 'image-empty-alt-informative')).toEqual({ '#logo-empty': 'needs_review', '#chart-none': 'needs_review', '#figure-empty': 'needs_review' });
    expect(at(fail, 'background-image-informative')).toEqual({ '#bg-only': 'needs_review' });
    expect(at(fail, 'image-alt-filename')).toEqual({ '#placeholder': 'confirmed', '#spacer': 'confirmed', '#click': 'needs_review' });
    expect(at(fail, 'image-of-text')).toEqual({ '#banner-text': 'needs_review', '#heading-text': 'needs_review' });
    const pass = await scan(`
      <p><img src="/img/acme-logo.png" alt="" width="120" height="60"> Acme Corporation</p>
      <a href="/"><img src="/img/acme-logo.png" alt="" width="120" height="60"></a>
      <img src="/img/holiday.jpg" alt="" width="400" height="300">
      <div style="padding:1em;background:url(/img/bg.png)">Welcome to our shop</div>
      <section><div style="width:300px;height:120px;background:url(/img/banner.png)"></div><p>Text beside it</p></section>
      <div><div role="img" aria-label="Sales rose" style="width:300px;height:120px;background:url(/img/banner.png)"></div></div>
      <img src="/img/holiday.jpg" alt="Children playing on the beach at sunset" width="600" height="200">
      <header><a href="/"><img src="/img/banner.png" alt="Acme Widgets Limited" width="300" height="60"></a></header>
      <img src="/img/banner.png" class="site-logo" alt="Acme Widgets Limited Company" width="600" height="100">
      <img src="/img/holiday.jpg" alt="Photo" title="x" width="20" height="20" role="presentation">
      <figure><img src="/img/holiday.jpg" alt="" width="400" height="300"><img src="/img/holiday.jpg" alt="Sand" width="400" height="300"><figcaption>Two beaches</figcaption></figure>
      <figure><img src="/img/holiday.jpg" alt="" width="400" height="300"></figure>
    `);
    for (const rule of ['image-empty-alt-informative', 'background-image-informative', 'image-of-text']) expect(ofRule(pass, rule), rule).toEqual([]);
    expect(at(pass, 'image-alt-filename')).toEqual({});
  });
});

describe('structure engine: alongside axe', () => {
  it('runs after axe on the same page, leaves a clean page clean and has a guide for every rule', async () => {
    const r = await scanner.scan(page('<h1>Title</h1><p>Just a paragraph of ordinary text on an ordinary page.</p>'), { engines: [axeEngine, structureEngine] });
    expect(r.engines.map((e) => [e.engine, e.error])).toEqual([
      ['axe', undefined],
      ['structure', undefined],
    ]);
    expect(r.findings.filter((f) => f.data.engine === 'structure')).toEqual([]);
    for (const rule of ['table-no-headers', 'layout-table-semantics', 'layout-table', 'table-nested', 'table-empty-header', 'visual-heading-not-marked', 'list-not-marked', 'image-alt-filename', 'image-hidden-has-alt', 'image-of-text', 'sensory-reference', 'image-empty-alt-informative', 'background-image-informative', 'css-generated-content', 'aria-hidden-content', 'presentation-role-semantics', 'sr-text-hidden', 'spacer-markup']) {
      expect(GUIDES[rule]?.fix, rule).toBeTruthy();
    }
  });
});

describe('structure engine: text in the pixels of images', () => {
  it('finds text drawn into images marked decorative or described in a few words, and none in pictures without text', async () => {
    const r = await scan(`
      <p><img id="banner" alt="" width="360" height="90"></p>
      <p><img id="sale" alt="Sale" width="420" height="130"></p>
      <p><img id="photo" alt="Balloons at the fair" width="360" height="200"></p>
      <p><img id="icon" alt="" width="24" height="24"></p>
      <p><img id="broken" src="/no-such-image.png" alt="A wide photograph of an awesome landscape at dawn" width="400" height="60"></p>
      <script>
        function draw(id, w, h, paint) {
          const c = document.createElement('canvas');
          c.width = w; c.height = h;
          const g = c.getContext('2d');
          g.fillStyle = '#fff'; g.fillRect(0, 0, w, h);
          paint(g);
          document.getElementById(id).src = c.toDataURL('image/png');
        }
        draw('banner', 360, 90, (g) => { g.fillStyle = '#123'; g.font = 'bold 28px sans-serif'; g.fillText('Summer sale now on', 12, 40); g.font = '20px sans-serif'; g.fillText('Every shoe in the shop', 12, 74); });
        draw('sale', 420, 130, (g) => { g.fillStyle = '#a00'; g.font = 'bold 30px serif'; g.fillText('25% off sale', 10, 36); g.font = '18px sans-serif'; g.fillStyle = '#000';
          g.fillText('Menswear, womenswear and shoes', 10, 70); g.fillText('Home and garden, first floor', 10, 100); });
        draw('photo', 360, 200, (g) => { const grad = g.createLinearGradient(0, 0, 360, 200); grad.addColorStop(0, '#39c'); grad.addColorStop(1, '#fc6'); g.fillStyle = grad; g.fillRect(0, 0, 360, 200);
          for (const [x, y, rad, col] of [[60, 80, 40, '#e33'], [150, 60, 34, '#3a3'], [240, 90, 46, '#33e'], [300, 150, 24, '#ee3']]) { g.fillStyle = col; g.beginPath(); g.arc(x, y, rad, 0, 7); g.fill(); } });
        draw('icon', 24, 24, (g) => { g.fillStyle = '#000'; g.font = '10px sans-serif'; g.fillText('ABCDEF', 0, 14); });
      </script>`);
    // An image of text fails 1.4.5 whatever its alt (ACT 0va7u6); 1.1.1 too where marked decorative
    // with nothing beside it, or where its alt says a few words of many.
    expect(at(r, 'image-of-text')).toEqual({ '#banner': 'needs_review', '#sale': 'needs_review' });
    const banner = ofRule(r, 'image-of-text').find((f) => f.elementSelector === '#banner')!;
    expect(banner.failureSummary).toMatch(/shows about \d+ letters of text in 2 lines/);
    expect(banner.failureSummary).toContain('marked decorative (alt="")');
    expect(banner.wcagCriteria).toEqual(['1.4.5', '1.1.1']);
    const sale = ofRule(r, 'image-of-text').find((f) => f.elementSelector === '#sale')!;
    expect(sale.failureSummary).toContain('Its text alternative has 4 letters');
    expect(sale.wcagCriteria).toEqual(['1.4.5', '1.1.1']);
  });
});
