import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { Violations } from '../errors/api-error.ts';

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Compiles a TypeBox query schema into a checker that converts the raw query strings to the
 * schema's types and records every failure in `violations` rather than stopping at the first,
 * so that a request learns all its mistakes from one 400 (the spec's "single 400").
 *
 * Query strings are forgiving where partners expect it: unknown parameters are ignored, an
 * empty value counts as not given, and array parameters may be repeated. A scalar parameter given
 * twice is a violation: which of the two did the caller mean?
 */
export function compileQuery<S extends TObject>(schema: S): (raw: RawQuery, violations: Violations) => Partial<Static<S>> {
  const checker = TypeCompiler.Compile(schema);
  const properties = schema.properties as Record<string, TSchema>;
  const arrayKeys = new Set(Object.keys(properties).filter((k) => properties[k].type === 'array'));

  return (raw, violations) => {
    const input: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
      if (!(key in properties)) continue;
      const value = raw[key];
      const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => v !== undefined && v !== '');
      if (values.length === 0) continue;
      if (arrayKeys.has(key)) input[key] = values;
      else if (values.length > 1) violations.add(key, `${key} was given ${values.length} times; give it once`);
      else input[key] = values[0];
    }
    const converted = Value.Convert(schema, input) as Record<string, unknown>;
    if (checker.Check(converted)) return converted as Partial<Static<S>>;
    for (const error of checker.Errors(converted)) {
      const key = error.path.split('/')[1] ?? '';
      if (!violations.has(key)) violations.add(key, `${key}: ${describe(error.schema, error.message)}`);
      delete converted[key];
    }
    return converted as Partial<Static<S>>;
  };
}

/** Prefers the schema's own description of what is expected over TypeBox's generic message. */
function describe(schema: TSchema, fallback: string): string {
  return typeof schema.description === 'string' ? `expected ${schema.description}` : fallback.toLowerCase();
}
