import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import type { HonoEnv } from '../env.ts';

const require = createRequire(import.meta.url);
const uiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>a11y-audit API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<main id="swagger-ui" aria-label="API reference"></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

/** Swagger UI served from the swagger-ui-dist package: no CDN, works offline. */
export function docsRoutes() {
  const app = new Hono<HonoEnv>();
  const cache = new Map<string, Buffer>();
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/assets/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let body = cache.get(file);
    if (!body) cache.set(file, (body = readFileSync(path.join(uiDir, file))));
    return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
