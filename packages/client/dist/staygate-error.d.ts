/** A gateway error: the JSON error body of every failed request, or a network failure (status 0). */
export declare class StaygateError extends Error {
    readonly status: number;
    readonly code: string;
    readonly requestId: string | null;
    readonly details: Record<string, unknown> | undefined;
    constructor(init: {
        status: number;
        code: string;
        message: string;
        requestId: string | null;
        details?: Record<string, unknown>;
    });
}
