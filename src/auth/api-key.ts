// The shape of an API key and the only code that touches the secret: generation, hashing and the
// constant-time comparison. The secret itself is never stored, logged or printed after creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `sg_<id>_<secret>`: a public id (8 random bytes, hex) by which a key is found, listed and
 * revoked, and a secret (32 random bytes, base64url: 256 bits). The id lets the gateway find the
 * one stored hash to compare with, instead of looking a secret up in a table.
 */
const KEY_PATTERN = /^sg_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const ID_PATTERN = /^[0-9a-f]{16}$/;

export interface NewApiKey {
  /** The whole key: shown once, then only its hash exists. */
  key: string;
  id: string;
  /** SHA-256 of the whole key. */
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const id = randomBytes(8).toString('hex');
  const key = `sg_${id}_${randomBytes(32).toString('base64url')}`;
  return { key, id, hash: hashApiKey(key) };
}

/** The key id of something shaped like a key, or null (then it is no key of ours). */
export function apiKeyId(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function isApiKeyId(text: string): boolean {
  return ID_PATTERN.test(text);
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

const DUMMY_HASH = Buffer.alloc(32);

/**
 * Whether `key` hashes to `storedHash`, in time that does not depend on where they differ. With
 * no stored hash (unknown id) a dummy comparison still runs, so the answer takes the same time.
 */
export function apiKeyMatches(key: string, storedHash: Buffer | null): boolean {
  const hash = hashApiKey(key);
  const against = storedHash !== null && storedHash.length === hash.length ? storedHash : DUMMY_HASH;
  return timingSafeEqual(hash, against) && against !== DUMMY_HASH;
}
