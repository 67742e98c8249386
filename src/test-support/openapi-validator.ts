// Holds real responses to the OpenAPI document the gateway publishes (GET /openapi.json), so the
// document cannot drift from the service: every JSON answer a test receives through TestApp.get is
// checked against the schema the document gives for its path, method and status.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface ResponseCheck {
  /** The document's path template the URL matched (`/go/{id}`), or null for a path it does not describe. */
  template: string | null;
  /** What is wrong, or [] when the body matches (or there is nothing to check). */
  problems: string[];
}

const DOCUMENT_ID = 'https://staygate.invalid/openapi.json';

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

export function createResponseValidator(
  document: OpenApiDocument,
): (method: string, url: string, status: number, contentType: string, body: unknown) => ResponseCheck {
  // Unknown keywords (`expected`, `capReason`) and formats (`unsafe`) are documentation here.
  const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, DOCUMENT_ID);
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const cache = new Map<string, ValidateFunction | null>();

  return (method, url, status, contentType, body) => {
    const path = url.split('?')[0];
    const match = templates.find((t) => t.pattern.test(path));
    if (match === undefined) return { template: null, problems: [] };
    const operation = document.paths[match.template][method.toLowerCase()];
    if (operation === undefined) return { template: match.template, problems: [`${method} ${match.template} is not documented`] };
    const response = operation.responses?.[String(status)];
    if (response === undefined)
      return { template: match.template, problems: [`status ${status} of ${method} ${match.template} is not documented`] };
    const mediaType = contentType.split(';')[0].trim();
    if (!mediaType.endsWith('json')) return { template: match.template, problems: [] };
    if (response.content?.[mediaType]?.schema === undefined) {
      return { template: match.template, problems: [`${mediaType} of ${status} ${method} ${match.template} is not documented`] };
    }
    const ref = `${DOCUMENT_ID}#/${pointer('paths', match.template, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema')}`;
    let validate = cache.get(ref);
    if (validate === undefined) {
      validate = ajv.getSchema(ref) ?? null;
      cache.set(ref, validate);
    }
    if (validate === null) return { template: match.template, problems: [`no schema at ${ref}`] };
    if (validate(body)) return { template: match.template, problems: [] };
    return {
      template: match.template,
      problems: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`),
    };
  };
}
