import type { paths } from './openapi.js';
export { StaygateError } from './staygate-error.js';
export type { paths } from './openapi.js';
type SearchOperation = paths['/v3/accommodations']['get'];
type TransactionsOperation = paths['/v1/reporting/transactions']['get'];
/** The v3 search parameters (GET /v3/accommodations), without `key`: the client sends its own. */
export type SearchParams = Omit<NonNullable<SearchOperation['parameters']['query']>, 'key'>;
/** One v3 page. */
export type SearchPage = SearchOperation['responses'][200]['content']['application/json'];
/** One stay of a page. */
export type Accommodation = SearchPage['results'][number];
/** The reporting parameters, without `key`, `format` (always JSON) and `page` (the iterator pages). */
export type TransactionParams = Omit<NonNullable<TransactionsOperation['parameters']['query']>, 'key' | 'format' | 'page'>;
/** One JSON page of transactions. */
export type TransactionPage = TransactionsOperation['responses'][200]['content']['application/json'];
/** One commission transaction. */
export type Transaction = TransactionPage['data'][number];
export interface ClientOptions {
    /** The gateway, e.g. `https://api.example.com`. */
    baseUrl: string;
    /** The partner's API key, sent as X-API-KEY; none = the keyless demo allowance. */
    key?: string;
    /** How often a 429 is retried after its Retry-After (default 2); `wait` replaces the timer (tests). */
    retry?: {
        max?: number;
        wait?: (ms: number) => Promise<void>;
    };
    /** A fetch of your own (proxies, instrumentation); default the global fetch. */
    fetch?: typeof fetch;
}
export interface StaygateClient {
    /** One page of a search. */
    search(params: SearchParams): Promise<SearchPage>;
    /** Every stay of every page, following `_links.next` while there is one. */
    searchAll(params: SearchParams): AsyncIterableIterator<Accommodation>;
    /** Every transaction of every page of the key's partner (needs a key and `thirdParty`). */
    transactions(params: TransactionParams): AsyncIterableIterator<Transaction>;
}
export declare function createClient(options: ClientOptions): StaygateClient;
