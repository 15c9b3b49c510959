import { gzipSync } from 'node:zlib';
import { html, pdf, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { pdfkitFile } from './pdf-files.ts';

/** Versions of the fixture site: v2 fixes one barrier and adds another; v3 is v1 again. */
export type SiteVersion = 1 | 2 | 3;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * A small site on loopback with the traps of a real one: a page only in the (gzipped, indexed)
 * sitemap, a robots.txt disallow, off-site links and an off-site redirect, a same-site redirect to
 * a known page, a PDF (an accessible one, tagged, titled, with a language: a document of the crawl
 * with no issue), mailto: and tel: links, a page that never answers, an endless query-string
 * calendar, a 404, and a barrier inserted by script. Its home page offers a search box, so each
 * page has a second way to be found (WCAG 2.4.5) and the crawl-level check stays quiet.
 */
export async function startCrawlFixture(): Promise<StaticServer & { setVersion(v: SiteVersion): void }> {
  let version: SiteVersion = 1;
  const server = await startStaticServer();
  const origin = () => server.origin;
  const dyn = (render: () => string) => (req: Parameters<ReturnType<typeof html>>[0], res: Parameters<ReturnType<typeof html>>[1]) => html(render())(req, res);

  server.route(
    '/',
    dyn(() =>
      page(
        'Home',
        `<p>Welcome. Read <a href="/about">about the company</a>, <a href="/contact#form">contact us</a>,
         browse <a href="/calendar?d=1">the events calendar</a>, see <a href="/scripted">the interactive page</a>,
         <a href="/old-about">our old about page</a>, <a href="/slow">the slow report</a>, <a href="/private/admin">the admin area</a>,
         <a href="/missing">a removed page</a>, <a href="/files/report.pdf">the annual report (PDF)</a>,
         <a href="mailto:info@example.org">email us</a>, <a href="tel:+441234567890">call us</a>,
         <a href="https://elsewhere.example/">our partner site</a>, <a href="/partner">the partner redirect</a>,
         <a href="/about#team">the team</a>.</p>
         <form role="search" action="/search"><label>Search the site <input type="search" name="q"></label> <button>Search</button></form>`,
      ),
    ),
  );
  server.route(
    '/about',
    dyn(() => page('About', version === 2 ? `<p>About us.</p><img src="${GIF}" alt="Our office" id="office" width="20" height="20">` : `<p>About us.</p><img src="${GIF}" id="office" width="20" height="20">`)),
  );
  server.route(
    '/contact',
    dyn(() =>
      page(
        'Contact',
        `<form id="form"><p>Write to us.</p><input type="text" id="message">${version === 2 ? '<button type="submit" id="send" style="width:44px;height:44px"></button>' : '<button type="submit">Send the message</button>'}</form>`,
      ),
    ),
  );
  server.route('/calendar', (req, res) => {
    const d = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('d') ?? '1');
    html(page(`Events on day ${d}`, `<p>No events. <a href="/calendar?d=${d + 1}">The next day's events</a>.</p>`))(req, res);
  });
  server.route(
    '/scripted',
    html(
      page(
        'Interactive',
        `<p>Loading the gallery.</p><div id="gallery"></div>
         <script>setTimeout(function () { var i = document.createElement('img'); i.id = 'late'; i.src = '${GIF}'; i.width = 20; i.height = 20; document.getElementById('gallery').appendChild(i); }, 150);</script>`,
      ),
    ),
  );
  server.route('/hidden', html(page('Only in the sitemap', '<p>Nobody links here.</p>')));
  server.route('/private/admin', html(page('Admin', '<p>Disallowed by robots.txt.</p>')));
  server.route('/slow', () => new Promise(() => {}));
  server.route('/old-about', (_req, res) => {
    res.writeHead(301, { location: '/about' });
    res.end();
  });
  server.route('/partner', (_req, res) => {
    res.writeHead(302, { location: 'https://elsewhere.example/welcome' });
    res.end();
  });
  const report = await pdfkitFile({ tagged: true, lang: 'en-GB', displayTitle: true, info: { Title: 'Annual report' } }, (d) => {
    const doc = d.struct('Document');
    d.addStructure(doc);
    doc.add(d.struct('H1', {}, () => d.text('Annual report')));
    doc.add(d.struct('P', {}, () => d.text('The company had a good year.')));
    doc.end();
  });
  server.route('/files/report.pdf', pdf(report));
  server.route('/robots.txt', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin()}/sitemap-index.xml\n`);
  });
  server.route('/sitemap-index.xml', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin()}/sitemap-pages.xml.gz</loc></sitemap></sitemapindex>`);
  });
  server.route('/sitemap-pages.xml.gz', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/gzip' });
    res.end(
      gzipSync(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin()}/hidden</loc></url><url><loc>${origin()}/about</loc></url><url><loc>${origin()}/private/admin</loc></url></urlset>`,
      ),
    );
  });
  return Object.assign(server, { setVersion: (v: SiteVersion) => void (version = v) });
}

/** The pages a crawl of the fixture must find, by path. */
export const FIXTURE_PAGES = ['/', '/about', '/calendar?d=1', '/calendar?d=2', '/calendar?d=3', '/contact', '/files/report.pdf', '/hidden', '/scripted', '/slow'];
