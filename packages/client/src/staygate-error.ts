/** A gateway error: the JSON error body of every failed request, or a network failure (status 0). */
export class StaygateError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly details: Record<string, unknown> | undefined;

  constructor(init: { status: number; code: string; message: string; requestId: string | null; details?: Record<string, unknown> }) {
    super(init.message);
    this.name = 'StaygateError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
  }
}
