// Test support: two handles of one kind of store on one database (two connections to one SQLite
// file, two pools on one PostgreSQL schema), for the contract suites' two-handle mode: what one
// handle writes, the other sees, as two gateways (or a gateway and the CLI) do.

export interface TwoHandles<T> {
  first: T;
  second: T;
  /** Closes both handles and removes the database. */
  close(): Promise<void>;
}
