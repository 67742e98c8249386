import { StaygateError } from './staygate-error.js';
export { StaygateError } from './staygate-error.js';
const DEFAULT_RETRIES = 2;
function queryString(params) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
        if (value === undefined || value === null)
            continue;
        if (Array.isArray(value))
            for (const item of value)
                query.append(name, String(item));
        else
            query.append(name, String(value));
    }
    return query.toString();
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Retry-After in seconds (the gateway's form) or an HTTP date, as milliseconds. */
function retryAfterMs(header) {
    if (header === null)
        return 1_000;
    const seconds = Number(header);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds * 1_000);
    const date = Date.parse(header);
    return Number.isNaN(date) ? 1_000 : Math.max(0, date - Date.now());
}
async function errorOf(response) {
    const requestId = response.headers.get('x-request-id');
    let body = {};
    try {
        body = await response.json();
    }
    catch {
        // Not the gateway's JSON body (a proxy's page): the status says what we know.
    }
    return new StaygateError({
        status: response.status,
        code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
        message: typeof body.message === 'string' ? body.message : `HTTP ${response.status}`,
        requestId: typeof body.requestId === 'string' ? body.requestId : requestId,
        details: typeof body.details === 'object' && body.details !== null ? body.details : undefined,
    });
}
export function createClient(options) {
    const base = options.baseUrl.replace(/\/+$/, '');
    const doFetch = options.fetch ?? fetch;
    const maxRetries = options.retry?.max ?? DEFAULT_RETRIES;
    const wait = options.retry?.wait ?? sleep;
    const headers = { accept: 'application/json' };
    if (options.key !== undefined)
        headers['x-api-key'] = options.key;
    /** GET a URL as JSON; a 429 waits its Retry-After and tries again, up to maxRetries times. */
    async function getJson(url) {
        for (let attempt = 0;; attempt++) {
            let response;
            try {
                response = await doFetch(url, { headers });
            }
            catch (error) {
                throw new StaygateError({ status: 0, code: 'NETWORK_ERROR', message: `${url} could not be reached: ${error.message}`, requestId: null });
            }
            if (response.ok)
                return await response.json();
            if (response.status === 429 && attempt < maxRetries) {
                await response.body?.cancel();
                await wait(retryAfterMs(response.headers.get('retry-after')));
                continue;
            }
            throw await errorOf(response);
        }
    }
    const search = (params) => getJson(`${base}/v3/accommodations?${queryString(params)}`);
    return {
        search,
        async *searchAll(params) {
            let page = await search(params);
            for (;;) {
                yield* page.results;
                const next = page._links.next?.href;
                if (next === undefined || page.results.length === 0)
                    return;
                page = await getJson(next);
            }
        },
        async *transactions(params) {
            for (let page = 0;; page++) {
                const body = await getJson(`${base}/v1/reporting/transactions?${queryString({ ...params, format: 'json', page })}`);
                yield* body.data;
                if (!body.meta.hasMore || body.data.length === 0)
                    return;
            }
        },
    };
}
