// `staygate mcp`: the gateway's MCP tools over stdio for desktop agents (docs/decisions.md 54). The
// tools are the ones `/mcp` serves (http/mcp/create-mcp-server.ts); here each tool call is a REST
// request over HTTP to a running gateway, with the partner's key, so limits and links are the
// gateway's. Stdout carries the protocol only: nothing else may be printed there.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpSettings, type RestCall } from '../http/mcp/create-mcp-server.ts';

export interface McpCommandOptions {
  url: string;
  key: string | null;
  version: string;
  /** The figures the tools' argument schemas name (the gateway's settings). */
  settings: McpSettings;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Tool calls as GETs of the gateway at `url`. A network failure is an answer too: the agent is told, the server stays up. */
export function restOverHttp(url: string, key: string | null): RestCall {
  const base = url.replace(/\/+$/, '');
  return async (path, query) => {
    try {
      const response = await fetch(`${base}${path}?${query.toString()}`, {
        headers: { accept: 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
      });
      const text = await response.text();
      try {
        return { status: response.status, body: JSON.parse(text) as unknown };
      } catch {
        return { status: response.status, body: { message: `The gateway answered HTTP ${response.status} without a JSON body` } };
      }
    } catch (error) {
      return { status: 502, body: { message: `The gateway at ${base} could not be reached: ${(error as Error).message}` } };
    }
  };
}

/** Serves MCP on stdin/stdout until stdin ends (the agent closed the connection). */
export async function runMcpCommand(options: McpCommandOptions): Promise<void> {
  const server = createMcpServer(restOverHttp(options.url, options.key), options.version, options.settings);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin as never, (options.stdout ?? process.stdout) as never);
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
