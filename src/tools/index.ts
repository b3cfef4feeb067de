/**
 * Berth's engine as tools for agents: one set of definitions (read and act), one way to check an input against its
 * schema, and one way to call a tool, shared by VS Code's language-model tools and `berth mcp`.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { isEngineError } from '../engine';
import { ACT_TOOLS } from './actTools';
import { READ_TOOLS, ToolInputError } from './readTools';
import type { AgentTool, ToolContext, ToolResult } from './toolTypes';

export * from './toolTypes';
export { ToolInputError } from './readTools';
export { untrusted } from './boundedText';

export const AGENT_TOOLS: readonly AgentTool[] = [...READ_TOOLS, ...ACT_TOOLS];

export function agentTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}

const ajv = new Ajv({ allErrors: false, strict: true });
const validators = new Map<string, ValidateFunction>();

function validatorOf(tool: AgentTool): ValidateFunction {
  let validate = validators.get(tool.name);
  if (!validate) {
    validate = ajv.compile(tool.inputSchema);
    validators.set(tool.name, validate);
  }
  return validate;
}

/** Undefined when the input fits the tool's schema, else one sentence naming the field and what it must be. */
export function inputProblem(tool: AgentTool, input: unknown): string | undefined {
  const validate = validatorOf(tool);
  if (validate(input ?? {})) return undefined;
  const error = validate.errors?.[0];
  if (!error) return 'the input does not fit the schema';
  const field = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'the input';
  if (error.keyword === 'additionalProperties') return `${field} has no field "${String(error.params['additionalProperty'])}"`;
  if (error.keyword === 'required') return `${field} needs the field "${String(error.params['missingProperty'])}"`;
  return `${field} ${error.message ?? 'is not valid'}`;
}

/**
 * Checks the input, runs the tool and turns every failure into a result the agent can read: the engine's own words
 * and what to do next. Only a programming error escapes as a rejection.
 */
export async function invokeAgentTool(tool: AgentTool, input: unknown, context: ToolContext): Promise<ToolResult> {
  const problem = inputProblem(tool, input);
  if (problem !== undefined) return { text: `${tool.name}: ${problem}. See the tool's input schema.`, isError: true };
  try {
    return await tool.run((input ?? {}) as Record<string, unknown>, context);
  } catch (error) {
    if (isEngineError(error) || error instanceof ToolInputError) return { text: `${tool.name} failed: ${error.message}`, isError: true };
    if (context.signal?.aborted) return { text: `${tool.name} was cancelled.`, isError: true };
    throw error;
  }
}
