/**
 * What an agent tool is, for both of its fronts: VS Code's language-model tools (src/agents) and `berth mcp`. Plain
 * Node: no `vscode`, so the CLI, the extension and the tests share one definition of every tool.
 */
import type { CredentialLookup, EngineClient } from '../engine';

/** The JSON Schema subset the tools use; the same object goes to package.json, VS Code and MCP. */
export interface ToolSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
}

/** The container a tool acts on or reads, as every tool names it. */
export const CONTAINER_INPUT = { type: 'string', minLength: 1, maxLength: 256, description: 'Container name or id (a unique id prefix works).' } as const;

/** A tool's input: an object of PROPERTIES, REQUIRED among them (listed only when there are some), and nothing else. */
export function inputObject(properties: Readonly<Record<string, unknown>>, required: readonly string[] = []): ToolSchema {
  return required.length > 0 ? { type: 'object', properties, required, additionalProperties: false } : { type: 'object', properties, additionalProperties: false };
}

/** An engine the tools can name, as `list_engines` reports it. */
export interface KnownEngine {
  readonly name: string;
  readonly endpoint: string;
  readonly current: boolean;
  readonly state?: string;
}

export interface ToolContext {
  readonly client: EngineClient;
  readonly credentials?: CredentialLookup | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Where relative host paths of `run_container` start (the workspace folder, or the CLI's working directory). */
  readonly cwd: string;
  readonly environment: NodeJS.ProcessEnv;
  /** The engine runs on this machine: bind-mount sources and host ports are checked here. */
  readonly engineIsLocal: boolean;
  readonly engines: () => readonly KnownEngine[];
  /** Now, in ms since the epoch: relative `since`/`until` start from it. */
  readonly now: () => number;
}

export interface ToolResult {
  readonly text: string;
  /** A failure the agent should read: the engine's own words and what to do next. */
  readonly isError?: boolean;
}

export interface AgentTool {
  /** snake_case, unique: the MCP name and (prefixed `berth_`) VS Code's. */
  readonly name: string;
  readonly title: string;
  /** Read tools run without asking; act tools change the engine's state and ask first (VS Code) or need --allow-write (MCP). */
  readonly kind: 'read' | 'act';
  readonly description: string;
  readonly inputSchema: ToolSchema;
  /** Inputs that pass the schema, for the unit test and the docs. */
  readonly examples: readonly Record<string, unknown>[];
  /** What the act will do, in words a user confirms (act tools only). Values of env variables are never shown. */
  readonly describeAct?: (input: Record<string, unknown>) => string;
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** Bounds every result keeps, whatever the engine sends. */
export const RESULT_LIMITS = {
  /** The most bytes of text any result holds. */
  maxResultBytes: 64 * 1024,
  /** The longest line of container output shown whole; a longer one is cut, with a marker. */
  maxLineBytes: 4 * 1024,
  /** The most lines a logs result holds. */
  maxLogLines: 5_000,
  /** The most rows a list result holds. */
  maxListRows: 500,
} as const;
