import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

const swaggerUiAssets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * `/openapi/v1.json` and `/docs`: Swagger UI served from the swagger-ui-dist package, so it
 * works with no internet access (no CDN, no online validator).
 */
export function apiDocsRouter(title: string, document: unknown): Router {
  const router = Router();
  const documentJson = JSON.stringify(document);
  router.get('/openapi/v1.json', (_req, res) => {
    res.type('application/json').send(documentJson);
  });
  router.get('/docs', (req, res, next) => {
    if (!req.path.endsWith('/')) res.redirect(301, '/docs/');
    else next();
  });
  router.get('/docs/', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} API</title>
<link rel="stylesheet" href="assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="assets/swagger-ui-standalone-preset.js"></script>
<script src="init.js"></script></body>
</html>`);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(`window.ui = SwaggerUIBundle({
  url: '../openapi/v1.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
});`);
  });
  router.use('/docs/assets', express.static(swaggerUiAssets, { index: false, maxAge: '1d' }));
  return router;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
