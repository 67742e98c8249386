import { foldText } from '../text/fold-text.ts';

/**
 * Street types and their abbreviations, in the languages the suppliers' feeds are written in,
 * each reduced to one key: "12 Main St." and "12 Main Street" name one street, as do "Via Roma 12"
 * and "V. Roma, 12". libpostal would expand every abbreviation of every country, but it is a
 * native library with a 2 GB model; the street words of four feeds need only this table.
 */
const STREET_TYPES: Record<string, string> = {};
for (const [key, spellings] of [
  ['st', 'street st str strasse straat'],
  ['av', 'avenue ave av avenida avda'],
  ['rd', 'road rd'],
  ['ln', 'lane ln'],
  ['bd', 'boulevard blvd bd boul bvd'],
  ['dr', 'drive dr'],
  ['r', 'rue rua r'],
  ['pl', 'place pl plaza pza praca pc piazza pzza'],
  ['c', 'calle c cl'],
  ['v', 'via v'],
  ['ps', 'paseo pso ps'],
  ['co', 'corso cso'],
  ['vl', 'viale vle'],
  ['q', 'quai'],
  ['ter', 'terrace ter tce'],
  ['pde', 'parade pde'],
] as const) {
  for (const spelling of spellings.split(' ')) STREET_TYPES[spelling] = key;
}

/** German and Dutch write the street type into the word: "Hauptstraße", "Hauptstr.", "Kerkstraat". */
const FUSED_STREET = /^(.{3,})(strasse|straat|str)$/;
const NUMBER = /^\d+[a-z]?$/;

/** A street address reduced to what tells two places apart: the street's words and its house numbers. */
export interface StreetAddress {
  /**
   * The words of the street's name, folded: "Calle Princesa" and "Calle Serrano" share no word.
   * A street named by its type alone keeps it, reduced to one key ("st", "av", ...).
   */
  words: string[];
  /** House numbers ("12", "12a"; "12-14" is two). Empty when the feed gave none. */
  numbers: string[];
}

/**
 * The street part of an address as the feeds compose it, "<street line(s)>, <city>, <country>":
 * every comma part but the last two (none when there are fewer than three: a feed that hides the
 * street, as Expedia does for some rentals before booking, gives only the city and country).
 * Abbreviation dots are dropped before folding, so "P.za" is one word, not two.
 */
export function streetAddress(address: string): StreetAddress {
  const parts = address.split(',');
  const street = parts.length < 3 ? '' : parts.slice(0, -2).join(' ');
  const words: string[] = [];
  const types: string[] = [];
  const numbers: string[] = [];
  const folded = foldText(street.replaceAll('.', '').replaceAll('ß', 'ss'));
  if (folded === '') return { words, numbers };
  for (const word of folded.split(' ')) {
    const fused = FUSED_STREET.exec(word);
    if (NUMBER.test(word)) numbers.push(word);
    else if (fused !== null) {
      words.push(fused[1]);
      types.push('st');
    } else if (STREET_TYPES[word] !== undefined) types.push(STREET_TYPES[word]);
    else words.push(word);
  }
  return { words: words.length > 0 ? words : types, numbers };
}
