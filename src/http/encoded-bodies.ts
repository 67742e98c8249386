// The encoded bytes of static answers, kept per entity tag and content encoding (issue 22, "compression
// for free"). A static search's answer is a function of its tag (the request and the content
// version, etag.ts), so a second ask for the same tag in the same encoding costs neither the search,
// the serialisation nor the compressor: the bytes of the first answer are sent again. A new content
// version makes new tags; the old bodies age out of the LRU.
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import type { Settings } from '../types.ts';

/** What a body is sent in: the encodings @fastify/compress offers (create-http-app.ts), in its order of preference. */
export type BodyEncoding = 'br' | 'gzip' | 'identity';
const OFFERED: BodyEncoding[] = ['br', 'gzip'];

/**
 * The encoding @fastify/compress would choose for this Accept-Encoding: the same negotiator, with
 * `*` and `x-gzip` read as gzip as it reads them; none asked (or none acceptable), or its
 * `x-no-compression` header sent: identity.
 */
export function negotiateEncoding(headers: {
  'accept-encoding'?: string | string[];
  'x-no-compression'?: string | string[];
}): BodyEncoding {
  const header = headers['accept-encoding'];
  // The plugin's own opt-out header, honoured alike.
  if (typeof header !== 'string' || headers['x-no-compression'] !== undefined) return 'identity';
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), OFFERED) ?? 'identity';
}

/** A body in one encoding, and the Content-Encoding to send it with (null: as it is). */
export interface EncodedBody {
  bytes: Buffer;
  contentEncoding: 'br' | 'gzip' | null;
}

/** Brotli as the compress plugin and this cache both run it: text mode, at `brotliQuality`. */
export function brotliOptions(brotliQuality: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
    },
  };
}

/** The text encoded as the compress plugin would (its threshold, its brotli quality): below the threshold, as it is. */
export function encodeBody(
  text: string,
  encoding: BodyEncoding,
  settings: Pick<Settings, 'compressThresholdBytes' | 'brotliQuality'>,
): EncodedBody {
  const bytes = Buffer.from(text);
  if (encoding === 'identity' || bytes.length < settings.compressThresholdBytes) return { bytes, contentEncoding: null };
  const encoded = encoding === 'br' ? zlib.brotliCompressSync(bytes, brotliOptions(settings.brotliQuality)) : zlib.gzipSync(bytes);
  return { bytes: encoded, contentEncoding: encoding };
}

export interface EncodedBodies {
  get(etag: string, encoding: BodyEncoding): EncodedBody | undefined;
  set(etag: string, encoding: BodyEncoding, body: EncodedBody): void;
}

/** An LRU of encoded bodies bounded by their bytes (`maxBytes`: the app gives `encodedBodiesMaxBytes`). */
export function createEncodedBodies(maxBytes: number): EncodedBodies {
  const cache = new LRUCache<string, EncodedBody>({ maxSize: maxBytes, sizeCalculation: (body) => body.bytes.length + 64 });
  return {
    get: (etag, encoding) => cache.get(`${encoding} ${etag}`),
    set(etag, encoding, body) {
      // A body larger than the whole cache is not kept (lru-cache would refuse it anyway).
      if (body.bytes.length + 64 <= maxBytes) cache.set(`${encoding} ${etag}`, body);
    },
  };
}
