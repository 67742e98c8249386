import type { FastifyRequest } from 'fastify';
import type { LinkParams } from '../query/search-params.ts';

/** Who is calling, as the API key says; all null for keyless (demo) requests. */
export interface RequestAuth {
  keyId: string | null;
  partnerId: string | null;
  /** The key's affiliate id: it overrides any `aid` the request carries. */
  aid: string | null;
  /** Third-party platform names the key may report for. */
  thirdParties: string[];
}

export const KEYLESS: RequestAuth = { keyId: null, partnerId: null, aid: null, thirdParties: [] };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook; KEYLESS until then. */
    auth: RequestAuth;
  }
}

/** The effective link parameters: the key's `aid` wins over the request's own (spec, Authentication 4). */
export function effectiveLinkParams(request: FastifyRequest, requested: LinkParams): LinkParams {
  return { ...requested, aid: request.auth?.aid ?? requested.aid };
}
