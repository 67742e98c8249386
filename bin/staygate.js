#!/usr/bin/env node
// The `staygate` command (package.json "bin"). The CLI is TypeScript run through tsx, like the
// server, so the package needs no build step.
import process from 'node:process';
import { register } from 'tsx/esm/api';

// A reader that stops early (`staygate transactions status | head -1`) closes the pipe: what is
// left to print has nobody to read it. Without a listener that is an uncaught EPIPE and a stack
// trace; instead the rest of the output is dropped and the command completes (a sync still applies
// every report) and exits with its own code, quietly, as Unix tools do.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
});

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
