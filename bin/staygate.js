#!/usr/bin/env node
// The `staygate` command (package.json "bin"). The CLI is TypeScript run through tsx, like the
// server, so the package needs no build step.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
