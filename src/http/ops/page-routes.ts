// The two pages people look at (README, "Pages"): `/map`, the embeddable stays map, and `/hub`, the
// partner hub; and `/assets/*`, the bundles web/build.ts writes (nothing built is committed: the
// build runs before `npm start` and `npm test`). The pages are static HTML; the map's page gets its
// configuration (start view, tile source) written into it here.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.ts';
import type { GeocodedPlace } from '../../geo/geocoder.ts';
import { Type } from 'typebox';
import { errorResponses, textResponse } from '../route-schemas.ts';
import type { MapSearchCounter } from '../../auth/map-search-counter.ts';
import type { Settings } from '../../types.ts';
import { MAP_SEARCH_PATH } from '../v3/v3-routes.ts';

export interface Pages {
  /** Where web/build.ts wrote the bundles (web/dist by default). */
  dir: string;
  /** Resolves the map's `?address=` to its start view. */
  geocode(address: string): Promise<GeocodedPlace | null>;
  /** A raster tile template (`https://tiles.example/{z}/{x}/{y}.png`) in place of the offline basemap; null = offline. */
  tilesUrl: string | null;
  tilesAttribution: string | null;
  /** Keyless requests per IP per minute on the pages, and a traveller's map searches per minute with a map token. */
  keylessPerMinute: number;
  /** Map searches per minute of a whole map token without its own limit; absent = the settings' `mapTokenPerMinute`. */
  mapTokenPerMinute?: number;
  /** Counts each map search made with a token, for the partner's hub. */
  mapSearches?: MapSearchCounter;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * The offline street tiles (web/basemap-build.ts), read on first use like the other assets. Their
 * URL carries the version of the whole set (basemap.json names it), so a browser keeps them for
 * good; a tile of the set that has no data is an empty tile, which is a valid one (the map asks
 * for every tile of a covered area, and a 404 would be a console error in every browser).
 */
function streetTilesOf(dir: string): () => { version: string; tiles: Map<string, { body: Buffer; gzip: Buffer }> } {
  let loaded: { version: string; tiles: Map<string, { body: Buffer; gzip: Buffer }> } | null = null;
  return () => {
    if (loaded !== null) return loaded;
    const tiles = new Map<string, { body: Buffer; gzip: Buffer }>();
    let version: string;
    try {
      const basemap = JSON.parse(readFileSync(path.join(dir, 'basemap.json'), 'utf8')) as { tiles: string };
      version = basemap.tiles.split('/')[3];
      for (const name of readdirSync(path.join(dir, 'basemap'))) {
        if (!name.endsWith('.mvt')) continue;
        tiles.set(name, {
          body: readFileSync(path.join(dir, 'basemap', name)),
          gzip: readFileSync(path.join(dir, 'basemap', `${name}.gz`)),
        });
      }
    } catch {
      throw new ApiError('NOT_READY', `The pages are not built (no ${dir}/basemap): run npm run build`);
    }
    loaded = { version, tiles };
    return loaded;
  };
}

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
}

/**
 * The built files, read once (they are small and never change while the server runs). Read on
 * first use rather than at registration, so a gateway created before the build still serves them.
 */
function assetsOf(dir: string): () => Map<string, Asset> {
  let assets: Map<string, Asset> | null = null;
  return () => {
    if (assets !== null) return assets;
    const found = new Map<string, Asset>();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      throw new ApiError('NOT_READY', `The pages are not built (no ${dir}): run npm run build`);
    }
    for (const name of names) {
      const type = TYPES[path.extname(name)];
      if (type === undefined) continue;
      const body = readFileSync(path.join(dir, name));
      let gzip: Buffer | null = null;
      try {
        gzip = readFileSync(path.join(dir, `${name}.gz`));
      } catch {
        // no compressed twin: sent as it is
      }
      found.set(name, { type, body, gzip, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
    }
    assets = found;
    return found;
  };
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset, body: Buffer = asset.body): FastifyReply {
  reply.type(asset.type).header('Vary', 'Accept-Encoding').header('X-Content-Type-Options', 'nosniff');
  const gzipOk = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (body === asset.body && asset.gzip !== null && gzipOk) return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
  return reply.send(body);
}

/** `<script>` content must not close its element: `<` is written as a JSON escape. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

const number = (text: unknown, min: number, max: number): number | null => {
  if (typeof text !== 'string' || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
};

/**
 * What `/map` reads: its start view here, and the search parameters its page passes on to every
 * search (web/map/map.ts `PASSED`), described as the v3 search describes them.
 */
const mapQuerySchema = Type.Object({
  lat: Type.Optional(Type.Number({ description: 'Latitude of the start view, -85 to 85 (with `lng`).', examples: [48.8566] })),
  lng: Type.Optional(Type.Number({ description: 'Longitude of the start view, -180 to 180 (with `lat`).', examples: [2.3522] })),
  zoom: Type.Optional(Type.Integer({ description: 'Zoom of the start view, 1 to 18; default 13 (12 with `address`).', examples: [13] })),
  address: Type.Optional(
    Type.String({ description: 'A place in any script to start at, when `lat`/`lng` are not given.', examples: ['Paris'] }),
  ),
  token: Type.Optional(
    Type.String({
      description:
        "The partner's publishable map token (`staygate keys map-token`), bound to the sites it lists: the map's searches get its allowance and its `aid`; without it, the keyless allowance (docs/decisions.md 91).",
      examples: ['sgmap_...'],
    }),
  ),
  aid: Type.Optional(Type.String({ description: 'Affiliate id written into every booking link of the map.', examples: ['your-aid'] })),
  campaign: Type.Optional(Type.String({ description: 'Campaign label written into every booking link.', examples: ['blog'] })),
  checkin: Type.Optional(
    Type.String({ description: 'Check-in date `YYYY-MM-DD`: with `checkout`, the map shows prices.', examples: ['2027-03-01'] }),
  ),
  checkout: Type.Optional(Type.String({ description: 'Check-out date `YYYY-MM-DD`, after `checkin`.', examples: ['2027-03-04'] })),
  adults: Type.Optional(Type.Integer({ description: 'Adults the prices are for, as the search reads it.', examples: [2] })),
  currency: Type.Optional(Type.String({ description: 'ISO 4217 code of the prices, as the search reads it.', examples: ['EUR'] })),
  type: Type.Optional(Type.String({ description: 'Stay types shown, as the search reads them.', examples: ['hotel'] })),
  provider: Type.Optional(Type.String({ description: 'Suppliers shown, as the search reads them.', examples: ['supplier_a'] })),
});

/** The built assets of `dir`, and one page of them (a 503 until the build has run). */
type Built = { assets: () => Map<string, Asset>; page: (name: string) => Asset };

export function registerPageRoutes(app: FastifyInstance, pages: Pages, settings: Pick<Settings, 'pricedCandidates'>): void {
  const assets = assetsOf(pages.dir);
  const page = (name: string) => {
    const asset = assets().get(name);
    if (asset === undefined) throw new ApiError('NOT_READY', `The pages are not built (no ${name}): run npm run build`);
    return asset;
  };
  const built: Built = { assets, page };
  const config = { rateLimit: { keyless: pages.keylessPerMinute } };
  registerMapPage(app, pages, built, config, settings);
  registerHubPage(app, built, config);
  registerStreetTiles(app, streetTilesOf(pages.dir));
  registerAssets(app, built);
}

/** `/map`: the map page with its start view, tile source and search settings written into it. */
function registerMapPage(
  app: FastifyInstance,
  pages: Pages,
  { page }: Built,
  config: FastifyContextConfig,
  settings: Pick<Settings, 'pricedCandidates'>,
): void {
  // The map is meant to be framed by partners' sites (frame-ancestors *). Its scripts, styles and
  // searches come from here only; pictures may come from any supplier's host.
  const mapSchema = {
    tags: ['pages'],
    summary: 'The embeddable stays map (HTML)',
    description: `Searches the viewport through \`${MAP_SEARCH_PATH}\` as the traveller pans; meant to be framed by partners' sites.`,
    querystring: mapQuerySchema,
    response: { 200: textResponse('The map page.', 'text/html'), ...errorResponses(429, 503) },
  };
  app.get('/map', { config, schema: mapSchema }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const lat = number(q.lat, -85, 85);
    const lng = number(q.lng, -180, 180);
    const zoom = number(q.zoom, 1, 18);
    let view: { lat: number; lng: number; zoom: number; label?: string } | null =
      lat !== null && lng !== null ? { lat, lng, zoom: zoom ?? 13 } : null;
    let message: string | null = null;
    if (view === null && typeof q.address === 'string' && q.address.trim() !== '') {
      const place = await pages.geocode(q.address.slice(0, 200));
      if (place === null) message = `No place called "${q.address.slice(0, 200)}" was found.`;
      else view = { lat: place.lat, lng: place.lng, zoom: zoom ?? 12, label: place.label };
    }
    const mapConfig = {
      view,
      message,
      searchPath: MAP_SEARCH_PATH,
      tiles: pages.tilesUrl === null ? null : { url: pages.tilesUrl, attribution: pages.tilesAttribution ?? '' },
      pricedCandidates: settings.pricedCandidates,
    };
    // The placeholder is matched byte for byte (page-routes.test.ts checks the template has it).
    const html = page('map.html').body.toString('utf8').replace('{"config":"here"}', scriptJson(mapConfig));
    reply.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src * data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors *",
    );
    reply.header('Cache-Control', 'no-cache');
    return send(request, reply, page('map.html'), Buffer.from(html));
  });
}

/** `/hub`: the partner hub, which holds a partner's key. */
function registerHubPage(app: FastifyInstance, { page }: Built, config: FastifyContextConfig): void {
  // The hub holds a partner's key: never framed (clickjacking), never leaking its URL elsewhere.
  const hubSchema = {
    tags: ['pages'],
    summary: 'The partner hub (HTML)',
    description: 'Sign in with your key (or open `/hub#key=<key>`): the page reads the reporting summary and transactions with it.',
    response: { 200: textResponse('The hub page.', 'text/html'), ...errorResponses(429, 503) },
  };
  app.get('/hub', { config, schema: hubSchema }, async (request, reply) => {
    reply.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    );
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', 'no-cache');
    return send(request, reply, page('hub.html'));
  });
}

/** The offline street tiles of the map's basemap. */
function registerStreetTiles(app: FastifyInstance, streetTiles: ReturnType<typeof streetTilesOf>): void {
  // The offline street tiles: /assets/basemap/{version}/{z}/{x}/{y}.mvt, immutable under their version.
  app.get('/assets/basemap/:version/:z/:x/:tile', { config: { rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    const { version, z, x, tile } = request.params as Record<string, string>;
    const set = streetTiles();
    const y = /^(\d{1,7})\.mvt$/.exec(tile)?.[1];
    if (
      version !== set.version ||
      !/^\d{1,2}$/.test(z) ||
      Number(z) > 24 ||
      !/^\d{1,7}$/.test(x) ||
      y === undefined ||
      Number(x) >= 2 ** Number(z) ||
      Number(y) >= 2 ** Number(z)
    )
      throw new ApiError('NOT_FOUND', `No street tile "${version}/${z}/${x}/${tile}" (the map names the tiles of its own build)`);
    const found = set.tiles.get(`${Number(z)}-${Number(x)}-${Number(y)}.mvt`);
    reply
      .type('application/vnd.mapbox-vector-tile')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Vary', 'Accept-Encoding')
      .header('X-Content-Type-Options', 'nosniff');
    if (found === undefined) return reply.send(Buffer.alloc(0));
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(found.gzip);
    return reply.send(found.body);
  });
}

/** `/assets/:name`: the pages' scripts, styles and pictures. */
function registerAssets(app: FastifyInstance, { assets }: Built): void {
  // Static and small: not rate limited (a page load asks for five or six of them at once). Not in
  // the OpenAPI document: the pages load them, no client calls them.
  app.get('/assets/:name', { config: { rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const asset = name.endsWith('.html') ? undefined : assets().get(name);
    if (asset === undefined) throw new ApiError('NOT_FOUND', `No asset "${name}"`);
    // Revalidated on every use (a rebuild changes them under the same name), 304 while unchanged.
    reply.header('Cache-Control', 'no-cache').header('ETag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return send(request, reply, asset);
  });
}
