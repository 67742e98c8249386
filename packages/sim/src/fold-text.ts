// Text folding, for telling two property names of a city apart (name-property.ts). The same function
// as the gateway's src/text/fold-text.ts (the package never imports the gateway): the generator keeps
// names distinct exactly as the gateway will compare them.

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NON_ALNUM = /[^\p{L}\p{N}]+/gu;

/** Lower case, accents removed, punctuation turned into single spaces, trimmed. "Hôtel  d'Orsay" -> "hotel d orsay". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().replace(NON_ALNUM, ' ').trim();
}
