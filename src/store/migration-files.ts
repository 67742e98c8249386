import { readdirSync } from 'node:fs';

/** The migration steps of each engine: the same numbered names in each folder, each in its engine's dialect. */
export const MIGRATIONS = {
  sqlite: new URL('./migrations/sqlite/', import.meta.url),
  postgres: new URL('./migrations/postgres/', import.meta.url),
} as const;

export interface MigrationResult {
  /** Names recorded by this call, in order. */
  applied: string[];
  /** Every migration the database now has. */
  total: number;
}

/** The steps of a folder, `NNNN-name.sql`, in the order they apply (by name); other files are not steps. */
export function migrationFiles(dir: URL): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}-[\w-]+\.sql$/.test(name))
    .sort();
}
