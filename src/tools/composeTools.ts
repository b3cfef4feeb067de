/**
 * Compose up and down for an agent: only for a compose file inside the workspace (no link leads out of it), read
 * and checked first as Compose Up in the editor does, then run by the Compose implementation found on PATH as an
 * argument array, never through a shell, against the engine the tools use.
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  applyEnvironment,
  ComposeFileError,
  ComposeNotFoundError,
  composeArguments,
  composeEnvironment,
  detectComposeImplementation,
  readComposeModel,
  type ComposeRun,
} from '../engine';
import { cutText, listOf } from './boundedText';
import { ToolInputError } from './readTools';
import { inputObject, type AgentTool, type ToolContext, type ToolResult } from './toolTypes';

const FILE = { type: 'string', minLength: 1, maxLength: 1024, description: 'The compose file, relative to the workspace folder (e.g. compose.yaml).' } as const;
const OUTPUT_LIMIT = 16 * 1024;

/** The file's real path, refused unless it lies inside the workspace folder once every link is followed. */
async function fileInWorkspace(file: string, context: ToolContext): Promise<string> {
  const workspace = await realpath(context.cwd);
  let real: string;
  try {
    real = await realpath(resolve(workspace, file));
  } catch {
    throw new ToolInputError(`the compose file ${file} does not exist in the workspace (${workspace})`);
  }
  const inside = relative(workspace, real);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new ToolInputError(`the compose file ${file} is outside the workspace (${workspace}); only a file in it can be used`);
  return real;
}

async function runCompose(run: ComposeRun, context: ToolContext): Promise<ToolResult> {
  let implementation;
  try {
    await readComposeModel(run.files).then((model) => {
      const unknown = (run.services ?? []).filter((name) => !model.services.some((service) => service.name === name));
      if (unknown.length > 0) throw new ToolInputError(`${unknown.join(', ')}: no such service in ${run.files[0] ?? ''} (it has ${model.services.map((service) => service.name).join(', ')})`);
    });
    implementation = await detectComposeImplementation(undefined);
  } catch (error) {
    if (error instanceof ComposeFileError || error instanceof ComposeNotFoundError) throw new ToolInputError(error.message);
    throw error;
  }
  const args = composeArguments(implementation, run);
  const env = applyEnvironment(process.env, composeEnvironment(implementation, context.client.endpoint));
  return new Promise((resolveRun) => {
    execFile(implementation.command, args, { cwd: dirname(run.files[0] ?? context.cwd), env, maxBuffer: 4 * 1024 * 1024, signal: context.signal }, (error, stdout, stderr) => {
      const output = cutText(`${stdout}${stderr}`.trim(), OUTPUT_LIMIT);
      const line = `${implementation.id} ${args.slice(implementation.prefix.length).join(' ')}`;
      if (error) resolveRun({ text: `${line} failed (${error.code ?? error.message}):\n${output}`, isError: true });
      else resolveRun({ text: `${line} finished.${output ? `\n${output}` : ''}` });
    });
  });
}

export const composeUp: AgentTool = {
  name: 'compose_up',
  title: 'Compose up',
  kind: 'act',
  description:
    'Starts a Compose project from a compose file in the workspace (compose up -d), all services or the ones named, with the Compose ' +
    'implementation on PATH, against the engine Berth uses. The user is asked first.',
  inputSchema: {
    type: 'object',
    properties: { file: FILE, services: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z0-9._-]+$', maxLength: 256 }, maxItems: 50 } },
    required: ['file'],
    additionalProperties: false,
  },
  examples: [{ file: 'compose.yaml' }, { file: 'deploy/compose.yaml', services: ['web', 'db'] }],
  describeAct: (input) => {
    const services = listOf(input['services']);
    return `Compose up ${String(input['file'])}${services.length > 0 ? `: the services ${services.join(', ')}` : ': every service'}.`;
  },
  async run(input, context) {
    const file = await fileInWorkspace(String(input['file']), context);
    return runCompose({ files: [file], command: 'up', services: listOf(input['services']) }, context);
  },
};

export const composeDown: AgentTool = {
  name: 'compose_down',
  title: 'Compose down',
  kind: 'act',
  description: 'Stops and removes a Compose project\'s containers (compose down) for a compose file in the workspace; removeVolumes also removes its named volumes. The user is asked first.',
  inputSchema: inputObject({ file: FILE, removeVolumes: { type: 'boolean' } }, ['file']),
  examples: [{ file: 'compose.yaml' }, { file: 'compose.yaml', removeVolumes: true }],
  describeAct: (input) => `Compose down ${String(input['file'])}: stop and remove its containers${input['removeVolumes'] === true ? ' and its named volumes, with their data' : ''}.`,
  async run(input, context) {
    const file = await fileInWorkspace(String(input['file']), context);
    return runCompose({ files: [file], command: 'down', volumes: input['removeVolumes'] === true }, context);
  },
};
