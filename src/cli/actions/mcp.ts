/** `berth mcp`: wires the CLI's engine, credentials and streams to the MCP server in src/tools. */
import { Readable, Writable } from 'node:stream';
import type { McpCommandOptions } from '../options';
import type { CommandDeps } from '../io';

export async function mcpCommand(options: McpCommandOptions, deps: CommandDeps): Promise<number> {
  const { io, signal } = deps;
  // The server is a bundle of its own (dist/mcp.js), so the SDK is loaded only by this command. A require, not
  // import(): the launcher compiles the CLI's bundle through vm.Script with V8's code cache, and on Node 20 a cached
  // script loses its import() callback ("A dynamic import callback was not specified").
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { serveMcp } = require('../../tools/mcpServer.js') as typeof import('../../tools/mcpServer.js');
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const pending = io.stdout.deliver(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (pending) pending.then(() => done(), done);
      else done();
    },
  });
  await serveMcp({
    allowWrite: options.allowWrite,
    version: deps.version,
    input: io.stdin as Readable,
    output,
    signal,
    log: (line) => io.stderr.write(`${line}\n`),
    endpoint: deps.endpoint(),
    environment: io.env,
    cwd: process.cwd(),
    now: io.now,
  });
  return 0;
}
