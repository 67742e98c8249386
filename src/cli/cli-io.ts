// Where a command writes: its lines to stdout and errors to stderr when run, to arrays in tests.

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const STD_IO: CliIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };
