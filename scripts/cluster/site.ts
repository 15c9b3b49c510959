// The site the cluster crawls: a static corpus (ipython-docs by default) on the bridge's address,
// so that every worker host reaches it over its link. Run by `cluster up` as its own process.
import { BRIDGE_IP } from './network.ts';
import { SITE_PORT, corpusDir } from './layout.ts';
import { startStaticServer } from '../../test/support/static-server.ts';

const site = await startStaticServer({}, { root: corpusDir(), rootRedirect: '/3/index.html', host: BRIDGE_IP, port: SITE_PORT });
// A web server's keep-alive (nginx keeps an idle connection 75 s), not the 2 s the test server uses
// so that tests end quickly: with 2 s, on a loaded machine a client reuses a connection just as the
// server closes it, and discovery records the page as failed ("socket hang up").
site.server.keepAliveTimeout = 75_000;
console.log(`serving ${corpusDir()} on ${site.origin}`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void site.close().then(() => process.exit(0)));
