// Text folding shared by name matching (ingestion), name search and the geocoder.

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NON_ALNUM = /[^\p{L}\p{N}]+/gu;

/** Lower case, accents removed, punctuation turned into single spaces, trimmed. "Hôtel  d'Orsay" -> "hotel d orsay". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().replace(NON_ALNUM, ' ').trim();
}
