// Continent of an ISO 3166-1 alpha-2 country code (GeoNames' assignment), so the world can be
// checked to cover every inhabited continent. Cities of countries not listed here are not used.

export const CONTINENTS = {
  EU: 'Europe',
  AS: 'Asia',
  AF: 'Africa',
  NA: 'North America',
  SA: 'South America',
  OC: 'Oceania',
} as const;
export type Continent = keyof typeof CONTINENTS;

const COUNTRIES_BY_CONTINENT: Record<Continent, string> = {
  EU:
    'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU ' +
    'LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK',
  AS:
    'AE AF AM AZ BD BH BN BT CN GE HK ID IL IN IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY ' +
    'NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE',
  AF:
    'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR ' +
    'MU MW MZ NA NE NG RE RW SC SD SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  NA: 'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM ' + 'PR SV SX TC TT US VC VG VI',
  SA: 'AR BO BR CL CO EC FK GF GY PE PY SR UY VE',
  OC: 'AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PW SB TO TV VU WF WS',
};

const CONTINENT_BY_COUNTRY = new Map<string, Continent>();
for (const [continent, codes] of Object.entries(COUNTRIES_BY_CONTINENT) as [Continent, string][]) {
  for (const code of codes.split(' ')) CONTINENT_BY_COUNTRY.set(code, continent);
}

/** null for a country we hold no continent for (Antarctica, unknown codes). */
export function continentOf(countryCode: string): Continent | null {
  return CONTINENT_BY_COUNTRY.get(countryCode.toUpperCase()) ?? null;
}
