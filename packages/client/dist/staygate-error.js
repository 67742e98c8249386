/** A gateway error: the JSON error body of every failed request, or a network failure (status 0). */
export class StaygateError extends Error {
    status;
    code;
    requestId;
    details;
    constructor(init) {
        super(init.message);
        this.name = 'StaygateError';
        this.status = init.status;
        this.code = init.code;
        this.requestId = init.requestId;
        this.details = init.details;
    }
}
