import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small client-rendered shop: the server answers the same `<div id="app">` shell on every path
 * (no links in it, no sitemap), and a script renders the navigation and the route. Each route
 * carries a barrier of its own; the navigation also links an in-page anchor (`#top`), a route the
 * app renders as "Page not found", and a path robots.txt disallows.
 *
 * `history`: routes are paths (`/products`), links are followed with history.pushState.
 * `hash`: routes are fragments (`#/products`).
 * `static`: no router at all: a page linking `#/a` and `#/b`, which show the same page.
 */
export type SpaMode = 'history' | 'hash' | 'static';

/** Each route with its barrier: the axe rule and the element that fails it. */
export const SPA_ROUTES: ReadonlyArray<{ route: string; title: string; rule: string; selector: string; body: string }> = [
  { route: '/products', title: 'Products', rule: 'image-alt', selector: '#products-photo', body: '<img src="/shoe.gif" id="products-photo" width="20" height="20">' },
  { route: '/search', title: 'Search', rule: 'label', selector: '#search-box', body: '<input type="text" id="search-box">' },
  { route: '/cart', title: 'Your cart', rule: 'button-name', selector: '#cart-checkout', body: '<p>Two items.</p><button id="cart-checkout"></button>' },
  { route: '/account', title: 'Account', rule: 'select-name', selector: '#account-country', body: '<select id="account-country"><option>UK</option><option>FR</option></select>' },
  { route: '/help', title: 'Help', rule: 'role-img-alt', selector: '#help-diagram', body: '<div role="img" id="help-diagram" style="width:20px;height:20px"></div>' },
];

const GIF = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

function appScript(mode: 'history' | 'hash'): string {
  const routes = Object.fromEntries([['/', { title: 'Home', body: '<p>Welcome to the shop.</p>' }], ...SPA_ROUTES.map((r) => [r.route, { title: r.title, body: r.body }])]);
  return `(function () {
  var MODE = ${JSON.stringify(mode)};
  var ROUTES = ${JSON.stringify(routes)};
  var NAV = [['/products', 'Products'], ['/search', 'Search'], ['/cart', 'Cart'], ['/account', 'Account'], ['/help', 'Help'], ['/old-offers', 'Old offers']];
  function current() {
    if (MODE === 'hash') return location.hash.replace(/^#!?/, '') || '/';
    return location.pathname;
  }
  function href(path) { return MODE === 'hash' ? '#' + path : path; }
  function render() {
    var route = ROUTES[current()];
    var nav = NAV.map(function (n) { return '<li><a href="' + href(n[0]) + '">' + n[1] + '</a></li>'; }).join('');
    var main = route ? '<h1>' + route.title + '</h1>' + route.body : '<h1>Page not found</h1><p>Sorry, there is nothing here.</p>';
    document.title = (route ? route.title : 'Not found') + ' - Shop';
    document.getElementById('app').innerHTML =
      '<header><a href="' + href('/') + '">Shop</a><nav aria-label="Main"><ul>' + nav + '</ul></nav></header>' +
      '<main>' + main + '<p><a href="#top">Back to top</a> <a href="/private/staff">Staff area</a></p></main>';
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a');
    if (!a || MODE !== 'history') return;
    var to = a.getAttribute('href');
    if (to && to.charAt(0) === '/' && to.indexOf('/private/') !== 0) {
      e.preventDefault();
      history.pushState({}, '', to);
      render();
    }
  });
  window.addEventListener('popstate', render);
  window.addEventListener('hashchange', render);
  render();
})();`;
}

const SHELL = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';

const STATIC_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Brochure</title></head><body><main><h1>Brochure</h1>' +
  '<p>Our brochure.</p><div id="links"></div><img src="/shoe.gif" id="brochure-photo" width="20" height="20"></main>' +
  // Links only the rendered page has: fragments that look like routes, which nothing routes.
  '<script>document.getElementById("links").innerHTML = \'<a href="#/a">Part A</a> <a href="#!/b">Part B</a> <a href="#section">Section</a>\';</script></body></html>';

export interface SpaServer {
  origin: string;
  /** Every path requested, with its query. */
  hits: string[];
  close(): Promise<void>;
}

/** `slowMs`: every path but the home page answers after this long (a crawl still busy when a test acts on it). */
export async function startSpaFixture(mode: SpaMode, host: string, opts: { slowMs?: number } = {}): Promise<SpaServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (path === '/app.js' && mode !== 'static') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(appScript(mode));
    if (path === '/shoe.gif') return void res.writeHead(200, { 'content-type': 'image/gif' }).end(GIF);
    if (path === '/sitemap.xml' || path === '/favicon.ico' || path === '/app.js') return void res.writeHead(404).end();
    const answer = () => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(mode === 'static' ? STATIC_PAGE : SHELL);
    if (opts.slowMs && path !== '/') setTimeout(answer, opts.slowMs).unref();
    else answer();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
