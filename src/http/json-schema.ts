import { Type, type Static, type TObject, type TOptional, type TSchema, type TUnsafe } from 'typebox';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

// Response-schema pieces written the way fast-json-stringify serialises fastest. Why not
// Type.Union([T, Type.Null()]) and Type.Record: a union is an `anyOf`, which the serialiser settles
// by running a validator on the value, and a record walks the object's keys through a pattern;
// `type: [T, 'null']` is a typeof test and named properties are compiled in.

/** A number or null. */
export const nullableNumber: TUnsafe<number | null> = Type.Unsafe<number | null>({ type: ['number', 'null'] });

/** An object of this shape, or null. */
export function nullableObject<T extends TObject>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] });
}

/** One optional property per supplier, in supplier order. */
export function bySupplier<T extends TSchema>(entry: T): TObject<Record<SupplierId, TOptional<T>>> {
  const properties = Object.fromEntries(SUPPLIER_IDS.map((id) => [id, Type.Optional(entry)]));
  return Type.Object(properties as unknown as Record<SupplierId, TOptional<T>>);
}

/**
 * A string written as is, without the serialiser scanning it for characters to escape: only for
 * strings that cannot hold a quote, a backslash, a control character or a lone surrogate. URLs
 * the gateway builds qualify (percent-encoded by URLSearchParams/encodeURIComponent on a base
 * checked by `jsonSafeUrl`), so do ids and codes from fixed alphabets. Never for text from a
 * supplier or a request.
 */
export const jsonSafeString: TUnsafe<string> = Type.Unsafe<string>({ type: 'string', format: 'unsafe' });
