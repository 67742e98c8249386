// Word pools for names and addresses. Local flavour per language makes the cross-supplier name
// variants realistic (accents to drop, "Hôtel X" vs "X Hotel"), which entity resolution must survive.

export type Language = 'en' | 'fr' | 'es' | 'it' | 'de' | 'pt' | 'nl' | 'ja';

const LANGUAGE_COUNTRIES: Record<Exclude<Language, 'en'>, string> = {
  fr: 'FR BE LU MC SN CI CM MA DZ TN BJ BF ML NE TG GA CG CD MG HT RE GP MQ',
  es: 'ES MX AR CO PE CL VE EC BO PY UY CR PA GT HN SV NI CU DO PR',
  it: 'IT SM VA',
  de: 'DE AT CH LI',
  pt: 'PT BR AO MZ CV',
  nl: 'NL SR CW',
  ja: 'JP',
};
const LANGUAGE_BY_COUNTRY = new Map<string, Language>();
for (const [lang, codes] of Object.entries(LANGUAGE_COUNTRIES) as [Language, string][]) {
  for (const code of codes.split(' ')) LANGUAGE_BY_COUNTRY.set(code, lang);
}

export function languageOf(countryCode: string): Language {
  return LANGUAGE_BY_COUNTRY.get(countryCode) ?? 'en';
}

/** Streets, written as they follow the house number in the canonical "<number> <street>". */
export const STREETS: Record<Language, readonly string[]> = {
  en: [
    'Main Street', 'High Street', 'Church Road', 'Park Avenue', 'Oak Street', 'Maple Avenue', 'Cedar Lane',
    'Elm Street', 'Washington Street', 'King Street', 'Queen Street', 'Victoria Road', 'Station Road',
    'Market Street', 'Mill Lane', 'Bridge Street', 'River Road', 'Lake Drive', 'Hill Street', 'Green Lane',
    'George Street', 'Albert Road', 'York Road', 'Marine Parade', 'Harbour Street', 'Broadway',
    'Sunset Boulevard', 'Ocean Drive', 'Lincoln Avenue', 'Franklin Street', 'Chapel Street', 'Castle Street',
    'Princes Street', 'Water Street', 'Garden Terrace', 'Orchard Way', 'Canal Street', 'Union Street',
  ],
  fr: [
    'Rue de la Paix', 'Rue Lafayette', 'Avenue Victor Hugo', 'Boulevard Saint-Germain', 'Rue de Rivoli',
    'Rue du Faubourg Saint-Honoré', 'Rue des Lilas', 'Avenue Jean Jaurès', 'Place de la République',
    'Rue Pasteur', 'Boulevard Voltaire', 'Rue Gambetta', 'Rue du Château', 'Rue des Écoles',
    'Avenue Émile Zola', 'Quai de la Tournelle', 'Rue du Commerce', 'Rue de la Gare', 'Rue Mouffetard',
    'Boulevard Haussmann', 'Rue Saint-Denis', 'Avenue de l\'Opéra', 'Rue des Martyrs', 'Rue de Bretagne',
  ],
  es: [
    'Calle Mayor', 'Avenida de la Constitución', 'Calle del Sol', 'Paseo de Gracia', 'Calle San Juan',
    'Avenida Libertad', 'Calle Real', 'Plaza de España', 'Calle de Alcalá', 'Paseo de la Reforma',
    'Calle Princesa', 'Rambla de Catalunya', 'Calle Ancha', 'Avenida del Mar', 'Calle Nueva',
    'Calle de la Luna', 'Avenida Bolívar', 'Calle Colón', 'Calle Serrano', 'Calle Cervantes',
  ],
  it: [
    'Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Dante', 'Piazza del Duomo', 'Via Nazionale',
    'Via Mazzini', 'Via Cavour', 'Viale Europa', 'Via Veneto', 'Via del Corso', 'Via dei Fiori',
    'Corso Vittorio Emanuele', 'Via San Giovanni', 'Via della Scala', 'Lungarno Corsini', 'Via Solferino',
    'Via Margutta', 'Via Condotti', 'Via Tornabuoni',
  ],
  de: [
    'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße', 'Goethestraße', 'Marktplatz', 'Lindenallee',
    'Berliner Straße', 'Gartenstraße', 'Kirchweg', 'Am Markt', 'Friedrichstraße', 'Königsallee',
    'Schloßstraße', 'Mühlenweg', 'Rosenstraße', 'Kaiserstraße', 'Ludwigstraße', 'Wiesenweg',
  ],
  pt: [
    'Rua Augusta', 'Avenida da Liberdade', 'Rua das Flores', 'Rua Direita', 'Avenida Atlântica',
    'Rua do Comércio', 'Praça da República', 'Rua São Bento', 'Rua da Prata', 'Avenida Paulista',
    'Rua Garrett', 'Rua do Ouro', 'Avenida Brasil', 'Rua da Alegria',
  ],
  nl: [
    'Kerkstraat', 'Prinsengracht', 'Damrak', 'Stationsweg', 'Dorpsstraat', 'Marktplein', 'Keizersgracht',
    'Molenweg', 'Herengracht', 'Singel', 'Nieuwstraat', 'Kalverstraat', 'Lindengracht', 'Havenstraat',
  ],
  ja: [
    'Chuo-dori', 'Sakura-dori', 'Omotesando', 'Meiji-dori', 'Yasukuni-dori', 'Aoyama-dori', 'Ekimae-dori',
    'Kawaramachi-dori', 'Shijo-dori', 'Midosuji', 'Hommachi', 'Nishiki-koji', 'Kotohira-dori',
  ],
};

/** Evocative words for independent hotels, per language; English ones are used everywhere too. */
export const HOTEL_WORDS: Record<Language, readonly string[]> = {
  en: [
    'Aurora', 'Bellevue', 'Majestic', 'Royal', 'Imperial', 'Continental', 'Astoria', 'Regent', 'Plaza',
    'Metropole', 'Riverside', 'Harbour', 'Garden', 'Parkview', 'Central', 'Lotus', 'Orchid', 'Crown',
    'Phoenix', 'Atlas', 'Olympia', 'Victoria', 'Windsor', 'Savoy', 'Belvedere', 'Excelsior', 'Mirage',
    'Horizon', 'Sunrise', 'Sunset', 'Seaside', 'Lighthouse', 'Oasis', 'Meridian', 'Zenith', 'Cosmos',
    'Nova', 'Luna', 'Terra', 'Ambassador', 'Embassy', 'Diplomat', 'President', 'Senator', 'Capitol',
    'Heritage', 'Vintage', 'Ivy', 'Willow', 'Linden', 'Magnolia', 'Jasmine', 'Lavender', 'Rose', 'Tulip',
    'Cedar', 'Maple', 'Birch', 'Emerald', 'Sapphire', 'Ruby', 'Amber', 'Pearl', 'Coral', 'Ivory',
    'Silverstone', 'Goldcrest', 'Bluebell', 'Redwood', 'Whitehall', 'Blackstone', 'Greenhouse', 'Kingsway',
    'Queensbury', 'Castle', 'Abbey', 'Chapel', 'Mill', 'Wharf', 'Quay', 'Granary', 'Foundry', 'Tannery',
    'Observatory', 'Library', 'Gallery', 'Atelier', 'Studio', 'Canvas', 'Compass', 'Anchor', 'Harbourside',
    'Summit', 'Valley', 'Meadow', 'Orchard', 'Fountain', 'Terrace', 'Courtyard Lane', 'Arcade', 'Pavilion',
  ],
  fr: [
    'Lumière', 'Étoile', 'Belle Époque', 'Beauséjour', 'Bellevue', 'Métropole', 'Élysée', 'Opéra',
    'Saint-Germain', 'Montmartre', 'Rivoli', 'Tour Eiffel', 'Jardin', 'Château', 'Mistral', 'Cigale',
    'Papillon', 'Rossignol', 'Lys', 'Mimosa', 'Marronnier', 'Pré aux Clercs', 'Comète', 'Prieuré', 'Régence',
    'Trianon', 'Fleurie', 'Vendôme', 'Sorbonne', 'Panthéon', 'Marais', 'Bastille', 'Odéon',
  ],
  es: [
    'Sol', 'Alhambra', 'Mirador', 'Sevilla', 'Catedral', 'Plaza Mayor', 'Marqués', 'Colón', 'Puerta del Sol',
    'Las Palmas', 'Del Mar', 'Alborada', 'Azahar', 'Granada', 'Castilla', 'Andalucía', 'Cibeles', 'Guadalquivir',
    'Mañana', 'Señorío', 'Jardín', 'Farol', 'Estrella', 'Palmeras', 'Olivar', 'Peñón',
  ],
  it: [
    'Bella Vista', 'Bellavista', 'Stella', 'Duomo', 'Rinascimento', 'Medici', 'Colosseo', 'Trevi', 'Borghese',
    'Fiori', 'Giardino', 'Laguna', 'Rialto', 'Gondola', 'Aurelia', 'Corallo', 'Sole', 'Luna', 'Villa Verde',
    'Ponte Vecchio', 'Navona', 'Campo', 'Portofino', 'Torre', 'Cortile', 'Aquila',
  ],
  de: [
    'Zur Post', 'Adler', 'Krone', 'Löwen', 'Hirsch', 'Sonne', 'Königshof', 'Kaiserhof', 'Bären', 'Stern',
    'Schwan', 'Rössle', 'Lindenhof', 'Am See', 'Alpenblick', 'Schlossblick', 'Rheinblick', 'Tannenhof',
    'Marienbad', 'Grüner Baum', 'Weißes Rössl', 'Münchner Hof', 'Fürstenhof', 'Goldener Engel',
  ],
  pt: [
    'Alfama', 'Atlântico', 'Copacabana', 'Ipanema', 'Jardim', 'Solar', 'Estrela', 'Mar Azul', 'São Jorge',
    'Baixa', 'Chiado', 'Belém', 'Tejo', 'Açores', 'Coração', 'Palácio Real', 'Brisa', 'Oceano',
  ],
  nl: [
    'De Gouden Leeuw', 'Het Wapen', 'Grachtenhuis', 'De Molen', 'Het Anker', 'Tulp', 'Rembrandt', 'Vondel',
    'Jordaan', 'Amstel', 'De Zwaan', 'Het Hof', 'Zeezicht', 'Dam',
  ],
  ja: [
    'Sakura', 'Fuji', 'Kiku', 'Matsu', 'Hanabi', 'Tsuki', 'Kaze', 'Yume', 'Hoshi', 'Sora', 'Umi', 'Momiji',
    'Kinkaku', 'Asakusa', 'Shinjuku', 'Ginza', 'Gion', 'Namba', 'Ueno', 'Akasaka', 'Higashiyama', 'Kasumi',
  ],
};

/** Patterns for independent hotel names; `{w}` and `{x}` are two distinct words. */
export const HOTEL_PATTERNS: Record<Language, readonly string[]> = {
  en: [
    'Hotel {w}', '{w} Hotel', 'The {w}', 'The {w} Hotel', '{w} Inn', '{w} House', 'Grand Hotel {w}',
    '{w} & {x} Hotel', '{w} Suites', '{w} Boutique Hotel', 'Hotel {w} {x}', '{w} {x} Hotel', 'The {w} & {x}',
    '{w} Lodge Hotel', 'Hotel {w} & Spa', '{w} Park Hotel',
  ],
  fr: [
    'Hôtel {w}', 'Hôtel {w}', 'Hôtel de la {w}', 'Hôtel du {w}', 'Le {w}', 'Grand Hôtel {w}', 'Hôtel {w} & Spa',
    'Hôtel {w} {x}', 'Les Jardins du {w}', 'Hôtel {w} & {x}',
  ],
  es: [
    'Hotel {w}', 'Hostal {w}', 'Gran Hotel {w}', 'Hotel {w} {x}', 'Hotel Boutique {w}', 'Casa {w}', 'Hotel {w} & Spa',
    'Hostal {w} {x}', 'Hotel {w} y {x}',
  ],
  it: [
    'Hotel {w}', 'Albergo {w}', 'Grand Hotel {w}', 'Locanda {w}', 'Hotel {w} {x}', 'Residenza {w}', 'Hotel {w} & Spa',
    'Albergo {w} {x}', 'Hotel {w} & {x}',
  ],
  de: [
    'Hotel {w}', 'Gasthof {w}', 'Landhotel {w}', '{w} Hotel', 'Hotel {w} & Spa', 'Parkhotel {w}', 'Hotel {w} {x}',
    'Gasthof {w} & {x}',
  ],
  pt: ['Hotel {w}', 'Pousada {w}', 'Grande Hotel {w}', 'Hotel {w} {x}', 'Casa {w}', 'Pousada {w} {x}'],
  nl: ['Hotel {w}', '{w} Hotel', 'Hotel {w} & {x}', 'Hotel {w} {x}'],
  ja: ['Hotel {w}', '{w} Hotel', 'Hotel {w} {x}', 'Hotel {w} Inn', '{w} Stay Hotel', '{w} {x} Hotel', 'Hotel {w} & {x}'],
};

export interface ChainBrand {
  brand: string;
  /** Brands of one family have near-identical names, so the generator keeps them apart in a city. */
  family: string;
  stars: number;
  /** Countries the brand operates in; undefined = worldwide. */
  countries?: readonly string[];
}

const EUROPE_CORE = ['DE', 'AT', 'CH', 'NL', 'BE', 'ES', 'IT', 'GB', 'FR', 'CZ', 'PL', 'PT', 'DK', 'SE'];

export const CHAIN_BRANDS: readonly ChainBrand[] = [
  { brand: 'Ibis', family: 'ibis', stars: 2 },
  { brand: 'Ibis Styles', family: 'ibis', stars: 3 },
  { brand: 'Ibis Budget', family: 'ibis', stars: 1 },
  { brand: 'Novotel', family: 'novotel', stars: 4 },
  { brand: 'Mercure', family: 'mercure', stars: 4 },
  { brand: 'Holiday Inn', family: 'holiday-inn', stars: 3 },
  { brand: 'Holiday Inn Express', family: 'holiday-inn', stars: 3 },
  { brand: 'Hilton', family: 'hilton', stars: 5 },
  { brand: 'Hilton Garden Inn', family: 'hilton', stars: 4 },
  { brand: 'Hampton by Hilton', family: 'hilton', stars: 3 },
  { brand: 'Marriott', family: 'marriott', stars: 5 },
  { brand: 'Courtyard by Marriott', family: 'marriott', stars: 4 },
  { brand: 'Radisson Blu', family: 'radisson', stars: 4 },
  { brand: 'Best Western', family: 'best-western', stars: 3 },
  { brand: 'Sheraton', family: 'sheraton', stars: 5 },
  { brand: 'Crowne Plaza', family: 'crowne-plaza', stars: 4 },
  { brand: 'Hyatt Regency', family: 'hyatt', stars: 5 },
  { brand: 'Moxy', family: 'moxy', stars: 3 },
  { brand: 'Premier Inn', family: 'premier-inn', stars: 3, countries: ['GB', 'IE', 'DE', 'AE'] },
  { brand: 'Travelodge', family: 'travelodge', stars: 2, countries: ['GB', 'IE', 'ES'] },
  { brand: 'Motel One', family: 'motel-one', stars: 3, countries: EUROPE_CORE },
  { brand: 'NH Collection', family: 'nh', stars: 4, countries: EUROPE_CORE },
  { brand: 'Motel 6', family: 'motel-6', stars: 2, countries: ['US', 'CA'] },
  { brand: 'Comfort Inn', family: 'comfort', stars: 2, countries: ['US', 'CA', 'AU'] },
  { brand: 'Toyoko Inn', family: 'toyoko', stars: 2, countries: ['JP', 'KR'] },
  { brand: 'APA Hotel', family: 'apa', stars: 3, countries: ['JP'] },
];

/** Quarter / landmark words that tell apart the branches of a chain in one city. */
export const CHAIN_BRANCHES: Record<Language, readonly string[]> = {
  en: [
    'City Centre', 'Airport', 'Central Station', 'Old Town', 'Riverside', 'North', 'South', 'East', 'West',
    'Downtown', 'Waterfront', 'Convention Centre', 'Harbour', 'University', 'Park', 'Midtown', 'Uptown',
    'Cathedral', 'Docklands', 'Marina', 'Expo', 'Stadium', 'Market Square', 'Castle', 'Beach', 'Bridge',
  ],
  fr: [
    'Centre', 'Nord', 'Sud', 'Est', 'Ouest', 'Gare', 'Aéroport', 'Vieux Port', 'Opéra', 'Bastille', 'Montparnasse',
    'La Défense', 'Porte Maillot', 'Tour Eiffel', 'Gare de Lyon', 'Bercy', 'République', 'Place d\'Italie',
    'Saint-Lazare', 'Montmartre', 'Les Halles', 'Gare du Nord', 'Marne-la-Vallée', 'Porte de Versailles',
  ],
  es: ['Centro', 'Aeropuerto', 'Estación', 'Casco Antiguo', 'Norte', 'Sur', 'Puerto', 'Playa', 'Plaza', 'Ramblas', 'Castellana', 'Feria'],
  it: ['Centro', 'Aeroporto', 'Stazione', 'Centro Storico', 'Nord', 'Sud', 'Fiera', 'Porta', 'Duomo', 'Termini', 'Vaticano', 'EUR'],
  de: ['Zentrum', 'Flughafen', 'Hauptbahnhof', 'Altstadt', 'Nord', 'Süd', 'Ost', 'West', 'Messe', 'City', 'Hafen', 'Am Dom'],
  pt: ['Centro', 'Aeroporto', 'Estação', 'Baixa', 'Norte', 'Sul', 'Parque', 'Praia', 'Marquês'],
  nl: ['Centrum', 'Airport', 'Centraal Station', 'Noord', 'Zuid', 'Oost', 'West', 'Haven', 'Arena', 'RAI'],
  ja: ['Station', 'Shinjuku', 'Shibuya', 'Ginza', 'Ueno', 'Asakusa', 'Ikebukuro', 'Airport', 'Namba', 'Umeda', 'Akihabara', 'Shinagawa', 'Roppongi'],
};

export const RENTAL_ADJECTIVES: readonly string[] = [
  'Cosy', 'Sunny', 'Charming', 'Modern', 'Stylish', 'Spacious', 'Bright', 'Quiet', 'Elegant', 'Rustic',
  'Luxury', 'Lovely', 'Peaceful', 'Central', 'Renovated', 'Airy', 'Designer', 'Family-friendly', 'Romantic',
  'Secluded', 'Panoramic', 'Historic', 'Boho', 'Minimalist', 'Tranquil',
];

export const RENTAL_PLACES: readonly string[] = [
  'the old town', 'the centre', 'the beach', 'the park', 'the river', 'the station', 'the market',
  'the harbour', 'the cathedral', 'the museum district', 'the lake', 'the hills', 'the university',
];

export const RENTAL_EXTRAS: readonly string[] = [
  'with pool', 'with garden', 'with terrace', 'with balcony', 'with sea view', 'with fireplace',
  'with hot tub', 'with parking', 'with city view', 'with rooftop', 'with workspace', 'with patio',
];

export const RIAD_WORDS: readonly string[] = [
  'Dar Zitoun', 'Yasmine', 'Al Andalus', 'Dar Anika', 'Kasbah', 'Noor', 'Layla', 'Dar Silsila', 'Zahra',
  'Mimouna', 'Dar Attajmil', 'Les Oliviers', 'Amira', 'Jnane', 'Rahba',
];

export const RYOKAN_WORDS: readonly string[] = [
  'Sakura-so', 'Kikunoya', 'Hanaya', 'Matsuya', 'Yamaguchi', 'Tsuruya', 'Shirakaba', 'Hoshinoya',
  'Kasuga', 'Fujiya', 'Tamanoyu', 'Izumi', 'Kiyomizu', 'Yumoto',
];
