// How a second supplier writes the address of a property it shares with another: the street type
// abbreviated, the house number after the street (as most of Europe writes it), in capitals, or
// left out. Entity resolution must still see one property, and must not take the same street at
// another door for it.
import { createRandom, hashToUnit } from './random.ts';
import { splitAddress } from './split-address.ts';

/** Street types as feeds abbreviate them. German and Dutch fuse theirs into the word. */
const ABBREVIATIONS: Record<string, string> = {
  Street: 'St.',
  Avenue: 'Ave',
  Road: 'Rd',
  Lane: 'Ln',
  Boulevard: 'Blvd',
  Drive: 'Dr.',
  Terrace: 'Tce',
  Parade: 'Pde',
  Rue: 'R.',
  Place: 'Pl.',
  Calle: 'C/',
  Avenida: 'Avda.',
  Paseo: 'Pso.',
  Plaza: 'Pza.',
  Via: 'V.',
  Piazza: 'P.zza',
  Corso: 'C.so',
  Viale: 'V.le',
  Rua: 'R.',
  Praça: 'Pç.',
  Straße: 'Str.',
};
const FUSED = /(straße|strasse|straat)\b/;

function abbreviate(street: string): string {
  const words = street.split(' ');
  const at = words.findIndex((word) => ABBREVIATIONS[word] !== undefined);
  if (at >= 0) return words.map((word, i) => (i === at ? ABBREVIATIONS[word] : word)).join(' ');
  return street.replace(FUSED, 'str.');
}

/**
 * `address` ("<number> <street>, <City>, <CC>") as `supplier` writes it for `propertyId`: about
 * two in five unchanged; else the street type abbreviated, the number after the street ("Via Roma
 * 12", "Calle Mayor, 12"), capitals, or (one in twenty) no number, sometimes two of these. The
 * city and country stay: every feed has them in fields of their own. The same for the same three
 * arguments.
 */
export function varyAddress(address: string, propertyId: number, supplier: string): string {
  // Draws of its own per listing: varying addresses leaves the world's other draws (ids, names) as they were.
  const rng = createRandom(hashToUnit('address', propertyId, supplier) * 2 ** 32);
  const { line1, city, countryCode } = splitAddress(address);
  const space = line1.indexOf(' ');
  const number = line1.slice(0, space);
  let street = line1.slice(space + 1);
  if (rng.chance(0.35)) street = abbreviate(street);
  let line = `${number} ${street}`;
  const r = rng.next();
  if (r < 0.05) line = street;
  else if (r < 0.2) line = `${street} ${number}`;
  else if (r < 0.3) line = `${street}, ${number}`;
  if (rng.chance(0.1)) line = line.toUpperCase();
  return `${line}, ${city}, ${countryCode}`;
}
