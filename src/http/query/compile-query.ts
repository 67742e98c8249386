import type { Static, TObject, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Violations } from '../../errors/api-error.ts';

/** Why a parameter in `meta.ignored` is not part of the API: links leave such parameters out (search/links.ts). */
export const UNKNOWN_PARAMETER = 'unknown parameter';

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Compiles a TypeBox query schema into a checker that converts the raw query strings to the
 * schema's types and records every failure in `violations` rather than stopping at the first,
 * so that a request learns all its mistakes from one 400 (the spec's "single 400").
 *
 * Query strings are forgiving where partners expect it: unknown parameters are ignored (and
 * reported as such in `violations.ignored`), an empty value counts as not given, and array parameters may be repeated or written with brackets
 * (`provider[]=a&provider[]=b`, as common query-string libraries send arrays). A scalar parameter
 * given twice is a violation: which of the two did the caller mean?
 */
export function compileQuery<S extends TObject>(schema: S): (raw: RawQuery, violations: Violations) => Partial<Static<S>> {
  const checker = Compile(schema);
  const properties = schema.properties as Record<string, TSchema>;
  const arrayKeys = new Set(Object.keys(properties).filter((k) => (properties[k] as { type?: unknown }).type === 'array'));
  const numericKeys = new Set(Object.keys(properties).filter((k) => isNumeric(properties[k])));

  return (raw, violations) => {
    const input: Record<string, unknown> = {};
    for (const rawKey of Object.keys(raw)) {
      const key = arrayKeys.has(rawKey) || !rawKey.endsWith('[]') ? rawKey : rawKey.slice(0, -2);
      if (!(key in properties)) {
        // Reported, not silently dropped: a misspelt `pagesize` must not look applied (docs/decisions.md 44).
        violations.ignore(rawKey, UNKNOWN_PARAMETER);
        continue;
      }
      const value = raw[rawKey];
      const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => v !== undefined && v !== '');
      if (values.length === 0) continue;
      if (arrayKeys.has(key)) input[key] = [...((input[key] as string[] | undefined) ?? []), ...values];
      else if (values.length > 1) violations.add(key, `${key} was given ${values.length} times; give it once`);
      else input[key] = numericKeys.has(key) && DECIMAL.test(values[0]) ? Number(values[0]) : values[0];
    }
    if (checker.Check(input)) return input as Partial<Static<S>>;
    for (const error of checker.Errors(input)) {
      const key = error.instancePath.split('/')[1] ?? '';
      if (!violations.has(key)) violations.add(key, describe(key, error.keyword, properties[key] ?? schema, error.message));
      delete input[key];
    }
    return input as Partial<Static<S>>;
  };
}

/**
 * A decimal number as a person writes one ("12", "-0.5", "1e3"). Anything else ("0x10", "1,5",
 * "true") stays a string, which the checker then reports with what was expected. Hand-written
 * rather than TypeBox's Value.Convert: that walks the whole schema on every request (a tenth of a
 * static search's CPU) and reads "true" as 1 and "1.5" as the integer 1.
 */
const DECIMAL = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

function isNumeric(schema: TSchema): boolean {
  const type = (schema as { type?: unknown }).type;
  return type === 'number' || type === 'integer';
}

/**
 * A number out of range names the bound it crossed ("at most 30"), with the schema's `capReason`
 * when the bound is ours rather than the spec's; anything else prefers the schema's `expected`
 * (what a value must be, in a few words) over TypeBox's generic message. `description` is the
 * parameter's documentation in the OpenAPI document, too long for an error message.
 */
function describe(key: string, keyword: string, schema: TSchema, fallback: string): string {
  const s = schema as TSchema & { capReason?: unknown; expected?: unknown; maximum?: unknown; minimum?: unknown };
  const reason = typeof s.capReason === 'string' ? ` (${s.capReason})` : '';
  if (keyword === 'maximum') return `${key} must be at most ${s.maximum}${reason}`;
  if (keyword === 'minimum') return `${key} must be at least ${s.minimum}`;
  return `${key}: ${typeof s.expected === 'string' ? `expected ${s.expected}` : fallback.toLowerCase()}`;
}
