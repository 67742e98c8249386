// Replays clicks through the real `/go` routes at chosen times, for the demo partner's year of
// history (reporting/seed-demo.ts): a private instance of the HTTP app, never listening, with its
// own clock, so the backdating touches no request of the real server. No access control: these
// clicks come from the gateway itself.
import type { Tracking } from './go-routes.ts';
import { createHttpApp } from '../create-http-app.ts';
import type { HttpSettings, Services } from '../route-context.ts';

export interface ClickReplay {
  /** The supplier deeplinks (path and query) of a static v3 search with this query string. */
  links(query: string): Promise<string[]>;
  /** Follows a `/go/...` link (path and query) at `at` as a browser with `userAgent`: the redirect's Location. */
  click(link: string, at: Date, userAgent: string): Promise<string>;
  close(): Promise<void>;
}

export function createClickReplay(options: { services: () => Services | null; tracking: Tracking; settings: HttpSettings }): ClickReplay {
  let clock = new Date();
  const app = createHttpApp({
    services: options.services,
    now: () => clock,
    publicUrl: 'http://replay.invalid',
    logger: false,
    tracking: options.tracking,
    settings: options.settings,
  });
  return {
    async links(query) {
      const response = await app.inject({ url: `/v3/accommodations?${query}` });
      if (response.statusCode !== 200)
        throw new Error(`search for the demo clicks failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
      const body = response.json() as { results: { suppliers: Record<string, { link: string }> }[] };
      return body.results.flatMap((stay) =>
        Object.values(stay.suppliers).map((entry) => {
          const url = new URL(entry.link);
          return url.pathname + url.search;
        }),
      );
    },
    async click(link, at, userAgent) {
      clock = at; // inject calls are awaited one by one: each click sees its own time
      const response = await app.inject({ url: link, headers: { 'user-agent': userAgent } });
      if (response.statusCode !== 302)
        throw new Error(`demo click on ${link} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      return String(response.headers.location);
    },
    close: () => app.close(),
  };
}
