import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const require = createRequire(import.meta.url);

/** A file inside an installed package, whether or not its exports map lists it. */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

/** The playground's scripts and styles, each served from its npm package (no CDN). */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: packageFile('react', 'umd/react.production.min.js'), type: 'application/javascript' },
  'react-dom.js': {
    file: packageFile('react-dom', 'umd/react-dom.production.min.js'),
    type: 'application/javascript',
  },
  'graphiql.js': { file: packageFile('graphiql', 'graphiql.min.js'), type: 'application/javascript' },
  'graphiql.css': { file: packageFile('graphiql', 'graphiql.min.css'), type: 'text/css' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Configuration library: GraphQL playground</title>
<link rel="stylesheet" href="/playground/graphiql.css">
<style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading the playground…</div>
<script src="/playground/react.js"></script>
<script src="/playground/react-dom.js"></script>
<script src="/playground/graphiql.js"></script>
<script src="/playground/init.js"></script>
</body>
</html>`;

/**
 * Sends the session token the operator types in the headers tab (`{"x-svc-auth": "..."}`),
 * and the browser's `x-svc-auth` cookie, which the gateway forwards to the subgraphs.
 */
const INIT = `const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: 'headers',
    defaultHeaders: JSON.stringify({ 'x-svc-auth': '' }, null, 2),
    defaultQuery: '{\\n  auditEntries(take: 5, sortDescending: true) {\\n    total\\n    items { id version entryType action entityName loggedAt }\\n  }\\n}\\n',
  }),
);`;

/** An operator's GraphiQL at `/`, working with no internet access. */
export function playgroundRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/playground/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.get('/playground/:asset', (req, res, next) => {
    const asset = ASSETS[req.params.asset];
    if (!asset) {
      next();
      return;
    }
    res.type(asset.type).sendFile(asset.file, { maxAge: '1d' });
  });
  return router;
}
