import type { BrowserContext } from 'playwright';
import type { TargetPolicy } from '../../security/target-policy.ts';

export interface BlockedRequest {
  url: string;
  reason: string;
  isNavigation: boolean;
}

/**
 * Holds every request of a browser context to the same rule as the API: navigations, redirects
 * (each hop is a new routed request), sub-resources, fetch/XHR and WebSockets. Service workers
 * are blocked at context creation so that no request escapes routing.
 */
export async function installTargetGuard(
  context: BrowserContext,
  policy: TargetPolicy,
  onBlocked: (b: BlockedRequest) => void,
): Promise<void> {
  const verdicts = new Map<string, ReturnType<TargetPolicy['check']>>();
  const check = (url: URL) => {
    const key = `${url.protocol}//${url.host}`;
    let v = verdicts.get(key);
    if (!v) {
      v = policy.check(url);
      verdicts.set(key, v);
    }
    return v;
  };
  await context.route('**/*', async (route) => {
    const request = route.request();
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return route.abort('blockedbyclient');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return url.protocol === 'data:' || url.protocol === 'blob:' ? route.continue() : route.abort('blockedbyclient');
    }
    const verdict = await check(url);
    if (verdict.allowed) return route.continue();
    onBlocked({ url: url.href, reason: verdict.reason, isNavigation: request.isNavigationRequest() });
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, async (ws) => {
    let url: URL;
    try {
      url = new URL(ws.url().replace(/^ws/, 'http'));
    } catch {
      return ws.close();
    }
    const verdict = await check(url);
    if (verdict.allowed) ws.connectToServer();
    else {
      onBlocked({ url: ws.url(), reason: verdict.reason, isNavigation: false });
      await ws.close();
    }
  });
}
