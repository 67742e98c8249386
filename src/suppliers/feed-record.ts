import { STAY_TYPES, type StayType, type SupplierId } from '../types.ts';
import { SupplierError } from './supplier-error.ts';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number') return `number ${value}`;
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object from a supplier's feed, read field by field with its type checked. A wrong field
 * throws a `malformed` SupplierError whose message is the field's path ("properties[12].geo.latitude"),
 * so a broken feed is diagnosed from the log line alone.
 */
export class FeedRecord {
  readonly supplier: SupplierId;
  readonly path: string;
  private readonly fields: Record<string, unknown>;

  private constructor(supplier: SupplierId, path: string, fields: Record<string, unknown>) {
    this.supplier = supplier;
    this.path = path;
    this.fields = fields;
  }

  static of(supplier: SupplierId, path: string, value: unknown): FeedRecord {
    if (!isPlainObject(value)) {
      throw new SupplierError(supplier, 'malformed', `${path}: expected an object, got ${describe(value)}`);
    }
    return new FeedRecord(supplier, path, value);
  }

  fail(key: string, expected: string): never {
    throw new SupplierError(this.supplier, 'malformed', `${this.path}.${key}: expected ${expected}, got ${describe(this.fields[key])}`);
  }

  has(key: string): boolean {
    return this.fields[key] !== undefined && this.fields[key] !== null;
  }

  string(key: string): string {
    const value = this.fields[key];
    return typeof value === 'string' ? value : this.fail(key, 'a string');
  }

  nullableString(key: string): string | null {
    const value = this.fields[key];
    if (value === null || value === undefined) return null;
    return typeof value === 'string' ? value : this.fail(key, 'a string or null');
  }

  number(key: string): number {
    const value = this.fields[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fail(key, 'a finite number');
  }

  /** Absent counts as null: suppliers drop null fields as often as they write them. */
  nullableNumber(key: string): number | null {
    const value = this.fields[key];
    if (value === null || value === undefined) return null;
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fail(key, 'a finite number or null');
  }

  /** A number within [min, max]: coordinates and scores out of range are feed bugs, not data. */
  numberIn(key: string, min: number, max: number): number {
    const value = this.number(key);
    return value >= min && value <= max ? value : this.fail(key, `a number in [${min}, ${max}]`);
  }

  /** A price: finite and not negative (a negative total is a supplier bug, never a discount). */
  amount(key: string): number {
    const value = this.fields[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : this.fail(key, 'a non-negative amount');
  }

  /** One of the values a field may take (statuses, states). */
  oneOf<const T extends string>(key: string, values: readonly T[]): T {
    const value = this.fields[key];
    return typeof value === 'string' && (values as readonly string[]).includes(value)
      ? (value as T)
      : this.fail(key, `one of ${values.join(', ')}`);
  }

  /** An ISO 4217 code as suppliers write it: three capital letters. */
  currency(key: string): string {
    const value = this.fields[key];
    return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : this.fail(key, 'an ISO 4217 currency code');
  }

  integer(key: string): number {
    const value = this.number(key);
    return Number.isInteger(value) ? value : this.fail(key, 'an integer');
  }

  boolean(key: string): boolean {
    const value = this.fields[key];
    return typeof value === 'boolean' ? value : this.fail(key, 'a boolean');
  }

  record(key: string): FeedRecord {
    const value = this.fields[key];
    return isPlainObject(value) ? new FeedRecord(this.supplier, `${this.path}.${key}`, value) : this.fail(key, 'an object');
  }

  array(key: string): unknown[] {
    const value = this.fields[key];
    return Array.isArray(value) ? value : this.fail(key, 'an array');
  }

  /** An array of objects, each wrapped with its own path. */
  records(key: string): FeedRecord[] {
    return this.array(key).map((item, i) => FeedRecord.of(this.supplier, `${this.path}.${key}[${i}]`, item));
  }

  /**
   * Each object of an array decoded; with `onSkipped`, a record that is not an object or fails to
   * decode is skipped and told (one broken record must not cost the supplier its whole feed),
   * without it the first one throws.
   */
  decodeEach<T>(key: string, decode: (record: FeedRecord) => T, onSkipped?: (error: SupplierError) => void): T[] {
    const out: T[] = [];
    this.array(key).forEach((item, i) => {
      try {
        out.push(decode(FeedRecord.of(this.supplier, `${this.path}.${key}[${i}]`, item)));
      } catch (error) {
        if (onSkipped === undefined || !(error instanceof SupplierError) || error.kind !== 'malformed') throw error;
        onSkipped(error);
      }
    });
    return out;
  }

  /** A StayType after the supplier's own spelling was mapped by `normalise`. */
  stayType(key: string, normalise: (raw: string) => string = (raw) => raw): StayType {
    const mapped = normalise(this.string(key));
    return (STAY_TYPES as readonly string[]).includes(mapped) ? (mapped as StayType) : this.fail(key, 'a known stay type');
  }
}

/**
 * Guest ratings are canonical on 1-10 with one decimal; converting from 0-5 or percent leaves
 * float noise (4.35 * 2 = 8.7000000001), which would break equality and ETags.
 */
export function roundRating(value: number): number {
  return Math.round(value * 10) / 10;
}
