// Documentation served by the gateway itself, with nothing fetched from elsewhere: the interactive
// reference (Swagger UI from the swagger-ui-dist package, reading /openapi.json) and the
// repository's docs/ pages rendered to HTML (marked). No page spends a client's search allowance.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { marked } from 'marked';
import type { Settings } from '../../types.ts';
import { OPENAPI_PATH } from './openapi.ts';
import { errorResponses, textResponse } from '../route-schemas.ts';

export const DOCS_PATH = '/docs';
export const MIGRATION_GUIDE_PATH = '/docs/migrating-v1-to-v3';

/** docs/<name>.md served as /docs/<name>. */
const PAGES: Record<string, string> = {
  'migrating-v1-to-v3': 'Migrating from v1 to v3',
  api: 'API reference',
  decisions: 'Decisions where the interface is silent',
};

/** The files of swagger-ui-dist the page loads; nothing else of node_modules is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Our own script rather than an inline one, so the page works under a strict Content-Security-Policy.
// validatorUrl null: Swagger UI would otherwise send the document to a public validator.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  validatorUrl: null,
  deepLinking: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
});
`;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1b}
nav{display:flex;gap:1.5em;align-items:baseline;padding:.75em 1.5em;background:#1f2a44}
nav a{color:#fff;text-decoration:none}nav strong{color:#fff;margin-right:1em}
main{max-width:58em;margin:0 auto;padding:1em 1.5em 4em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}
code{background:#f2f2f2;padding:0 .2em;border-radius:3px}pre{background:#f2f2f2;padding:.8em;overflow:auto}pre code{padding:0}`;

function nav(): string {
  const links = [
    `<a href="${DOCS_PATH}">Interactive reference</a>`,
    ...Object.entries(PAGES).map(([name, title]) => `<a href="${DOCS_PATH}/${name}">${title}</a>`),
  ];
  return `<nav><strong>staygate</strong>${links.join('')}<a href="${OPENAPI_PATH}">openapi.json</a></nav>`;
}

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - staygate</title><link rel="icon" href="/favicon.ico"><style>${STYLE}</style>${head}</head>
<body>${nav()}${body}</body></html>`;
}

/** A docs/ page as HTML; links between pages (`decisions.md`) point at their served paths. */
function renderPage(name: string): { html: string; markdown: string } {
  const markdown = readFileSync(new URL(`../../../docs/${name}.md`, import.meta.url), 'utf8');
  const body = (marked.parse(markdown, { async: false }) as string).replace(
    /href="(?:\.\/|docs\/)?([a-z0-9-]+)\.md(#[^"]*)?"/g,
    (_m, target: string, hash = '') => `href="${DOCS_PATH}/${target}${hash}"`,
  );
  return { html: page(PAGES[name], '', `<main>${body}</main>`), markdown };
}

/** Markdown when the client prefers it (an `Accept` naming text/markdown before text/html), else HTML. */
function wantsMarkdown(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const md = accept.indexOf('text/markdown');
  const html = accept.indexOf('text/html');
  return md >= 0 && (html < 0 || md < html);
}

export function registerDocsRoutes(app: FastifyInstance, settings: Pick<Settings, 'docsKeylessPerMinute'>): void {
  // Pages are read by people following a link and by tools: their own allowance, never the
  // 5-per-minute search allowance (docs/decisions.md 16).
  const pageConfig = { rateLimit: { keyless: settings.docsKeylessPerMinute } };
  // Static files a browser fetches with every page: not limited (a page must not half-load).
  const assetConfig = { rateLimit: false as const };
  // Static files are left out of the OpenAPI document: they serve the pages, no client calls them.
  const hidden = { hide: true };
  const pageSchema = (summary: string, ...mediaTypes: string[]) => ({
    tags: ['documentation'],
    summary,
    response: { 200: textResponse('The page.', ...mediaTypes), ...errorResponses(429) },
  });

  const reference = page(
    'API reference',
    `<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">`,
    `<div id="reference"></div><script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script><script src="${DOCS_PATH}/assets/init.js"></script>`,
  );
  app.get(
    DOCS_PATH,
    { schema: pageSchema('The interactive reference (Swagger UI over /openapi.json)', 'text/html'), config: pageConfig },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(reference),
  );

  const rendered = new Map<string, { html: string; markdown: string }>();
  for (const name of Object.keys(PAGES)) {
    const schema = pageSchema(`${PAGES[name]} (HTML; Markdown when \`Accept\` prefers text/markdown)`, 'text/html', 'text/markdown');
    app.get(`${DOCS_PATH}/${name}`, { schema, config: pageConfig }, async (request, reply) => {
      const doc = rendered.get(name) ?? renderPage(name);
      rendered.set(name, doc);
      return wantsMarkdown(request)
        ? reply.type('text/markdown; charset=utf-8').send(doc.markdown)
        : reply.type('text/html; charset=utf-8').send(doc.html);
    });
  }

  const assets = new Map<string, Buffer>();
  app.get(`${DOCS_PATH}/assets/:file`, { schema: hidden, config: assetConfig }, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (file === 'init.js') return sendAsset(reply, 'text/javascript; charset=utf-8', Buffer.from(INIT_SCRIPT));
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined) return reply.callNotFound();
    let content = assets.get(file);
    if (content === undefined) {
      content = readFileSync(path.join(swaggerDir, file));
      assets.set(file, content);
    }
    return sendAsset(reply, type, content);
  });
  // Browsers ask for it on every page; an answer spares a 404 in their console.
  app.get('/favicon.ico', { schema: hidden, config: assetConfig }, async (_request, reply) => {
    const content = assets.get('favicon-32x32.png') ?? readFileSync(path.join(swaggerDir, 'favicon-32x32.png'));
    assets.set('favicon-32x32.png', content);
    return sendAsset(reply, 'image/png', content);
  });
}

function sendAsset(reply: FastifyReply, type: string, content: Buffer): FastifyReply {
  // The files change only with the package version: a day of caching spares every page view a download.
  return reply.type(type).header('Cache-Control', 'public, max-age=86400').send(content);
}
