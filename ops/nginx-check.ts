// Whether nginx can be started, for the two commands that put it in front of the gateways
// (`npm run cluster`, `npm run bench -- scale-out`): said before anything starts, in one message
// with what to do. Nothing is installed on the operator's machine by itself (issue 25).
import { spawnSync } from 'node:child_process';

/**
 * Why nginx cannot be started, or null when it can: `nginx -v` run as every start of it runs
 * (`spawn('nginx')`, found on PATH). `needs` says what it is for, in the operator's terms.
 */
export function nginxMissing(needs: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const probe = spawnSync('nginx', ['-v'], { env, stdio: 'ignore' });
  const code = (probe.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return (
      `nginx is missing: there is no nginx on PATH, and ${needs}. Install it (Debian/Ubuntu, as root: apt-get install nginx), ` +
      'or if it is installed, add its folder (often /usr/sbin) to PATH; then run this again. Nothing was installed or started.'
    );
  }
  if (probe.error !== undefined) return `nginx cannot be run (${probe.error.message}), and ${needs}. Nothing was started.`;
  if (probe.status !== 0) return `nginx -v failed (exit ${probe.status ?? probe.signal}), and ${needs}. Nothing was started.`;
  return null;
}

/** For a command's start: the message on stderr and exit 1 when nginx cannot be started. */
export function exitUnlessNginx(needs: string): void {
  const missing = nginxMissing(needs);
  if (missing === null) return;
  process.stderr.write(`${missing}\n`);
  process.exit(1);
}
