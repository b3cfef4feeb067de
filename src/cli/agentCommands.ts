/** `berth mcp`: the engine as tools for agents, over the Model Context Protocol. */
import type { McpCommandOptions } from './options';
import { booleanFlag, declareCommand } from './spec';

export const agentCommands = {
  mcp: declareCommand({
    usage: 'berth mcp [OPTIONS]',
    summary: 'Serve the engine to agents as an MCP server over stdio',
    details:
      'A Model Context Protocol server on stdin and stdout, for agents in VS Code (`mcp.json`) and other MCP clients: tools that list, inspect, ' +
      'read logs, stats and processes, and (with `--allow-write`) start, stop, restart, remove, run and pull; containers\' logs as resources. ' +
      'Container output is marked as untrusted data; environment values are shown only when asked for. Acts are logged on stderr. ' +
      'The engine is chosen as for every command (`-H`, `DOCKER_HOST`, the context).',
    positionals: { min: 0, max: 0 },
    flags: {
      allowWrite: booleanFlag('allow-write', undefined, 'Offer the tools that change containers and images (default: read-only)'),
    },
    build: (flags): McpCommandOptions => ({ allowWrite: flags.allowWrite }),
    run: async (options, deps): Promise<number> => (await import('./actions/mcp.js')).mcpCommand(options, deps),
  }),
} as const;
