/**
 * Splits a canonical address "<number> <street>, <City>, <CC>" into what suppliers a and b send as
 * separate fields. From the right: the city and the country code never contain ", ", a street might.
 */
export function splitAddress(address: string): { line1: string; city: string; countryCode: string } {
  const last = address.lastIndexOf(', ');
  const middle = address.lastIndexOf(', ', last - 1);
  if (last < 0 || middle < 0) throw new Error(`not a canonical address: ${address}`);
  return {
    line1: address.slice(0, middle),
    city: address.slice(middle + 2, last),
    countryCode: address.slice(last + 2),
  };
}
