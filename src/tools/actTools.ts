/**
 * The tools that change the engine's state. Each says in `describeAct` exactly what it will do, which VS Code shows
 * in its confirmation and `berth mcp` logs; environment values are never part of that text.
 */
import { shortId } from '../common/format';
import { parseImageReference, pull, resolveRunOptions, runInBackground } from '../engine';
import { listOf } from './boundedText';
import { composeDown, composeUp } from './composeTools';
import { CONTAINER_INPUT as CONTAINER, inputObject, type AgentTool, type ToolResult } from './toolTypes';

const IMAGE = { type: 'string', minLength: 1, maxLength: 512, description: 'Image reference, e.g. busybox:latest or registry.example:5000/team/app:1.2.' } as const;
const STRINGS = (description: string, maxItems = 50) => ({ type: 'array', items: { type: 'string', maxLength: 4096 }, maxItems, description }) as const;

function containerAct(
  name: string,
  title: string,
  verb: string,
  act: (tool: Parameters<AgentTool['run']>[1], container: string, input: Record<string, unknown>) => Promise<void>,
  extra: Record<string, unknown> = {},
): AgentTool {
  return {
    name,
    title,
    kind: 'act',
    description: `${title}. Changes the engine's state; the user is asked first.`,
    inputSchema: inputObject({ container: CONTAINER, ...extra }, ['container']),
    examples: [{ container: 'web' }],
    describeAct: (input) => `${verb} the container ${String(input['container'])}${input['force'] === true ? ' (with force: a running container is killed first)' : ''}.`,
    async run(input, context): Promise<ToolResult> {
      const container = String(input['container']);
      await act(context, container, input);
      return { text: `${verb.replace(/^\w/, (letter) => letter.toUpperCase())}: done for ${container}.` };
    },
  };
}

export const startContainer = containerAct('start_container', 'Start a container', 'start', (context, id) => context.client.containers.start(id, { signal: context.signal }));
export const stopContainer = containerAct('stop_container', 'Stop a container', 'stop', (context, id, input) =>
  context.client.containers.stop(id, { timeoutSeconds: typeof input['timeoutSeconds'] === 'number' ? input['timeoutSeconds'] : undefined, signal: context.signal }),
  { timeoutSeconds: { type: 'integer', minimum: 0, maximum: 600, description: 'Seconds to wait before the engine kills it (default: the engine\'s).' } },
);
export const restartContainer = containerAct('restart_container', 'Restart a container', 'restart', (context, id) => context.client.containers.restart(id, { signal: context.signal }));
export const removeContainer = containerAct('remove_container', 'Remove a container', 'remove', (context, id, input) =>
  context.client.containers.remove(id, { force: input['force'] === true, signal: context.signal }),
  { force: { type: 'boolean', description: 'Kill it first if it runs.' } },
);

export const pullImage: AgentTool = {
  name: 'pull_image',
  title: 'Pull an image',
  kind: 'act',
  description: 'Pulls an image from its registry, with the credentials of the docker configuration or Berth\'s sign-in. The user is asked first.',
  inputSchema: inputObject({ image: IMAGE }, ['image']),
  examples: [{ image: 'busybox:latest' }],
  describeAct: (input) => `Pull the image ${String(input['image'])}.`,
  async run(input, { client, credentials, signal }) {
    const reference = String(input['image']);
    parseImageReference(reference);
    await pull(client, reference, { credentials, signal });
    return { text: `Pulled ${reference}.` };
  },
};

export const runContainer: AgentTool = {
  name: 'run_container',
  title: 'Run a container',
  kind: 'act',
  description:
    'Creates and starts a container in the background (pulling the image if it is missing) and returns its id. ' +
    'ports, env and volumes use docker run\'s syntax (8080:80, KEY=VALUE, /host/path:/path[:ro] or volume:/path). The user is asked first.',
  inputSchema: {
    type: 'object',
    properties: {
      image: IMAGE,
      command: STRINGS('The command and its arguments, one word each.', 100),
      name: { type: 'string', pattern: '^[a-zA-Z0-9][a-zA-Z0-9_.-]+$', maxLength: 128 },
      env: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_.-]*=', maxLength: 4096 }, maxItems: 50, description: 'KEY=VALUE entries.' },
      ports: STRINGS('[ip:][hostPort:]containerPort[/protocol] entries.', 20),
      volumes: STRINGS('HOST_PATH:CONTAINER_PATH[:ro] or VOLUME:CONTAINER_PATH[:ro] entries.', 20),
      network: { type: 'string', maxLength: 256, description: 'Network mode, e.g. none or host (default: the engine\'s).' },
      removeWhenDone: { type: 'boolean', description: 'Have the engine remove the container once it exits.' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [{ image: 'busybox:latest', command: ['sleep', '60'] }, { image: 'nginx:alpine', name: 'web', ports: ['8080:80'], env: ['MODE=dev'] }],
  describeAct: (input) => {
    const parts = [`Run the image ${String(input['image'])}`];
    const command = listOf(input['command']);
    if (command.length > 0) parts.push(`with the command ${JSON.stringify(command)}`);
    if (typeof input['name'] === 'string') parts.push(`named ${input['name']}`);
    const ports = listOf(input['ports']);
    if (ports.length > 0) parts.push(`publishing ${ports.join(', ')}`);
    const volumes = listOf(input['volumes']);
    if (volumes.length > 0) parts.push(`mounting ${volumes.join(', ')}`);
    const env = listOf(input['env']).map((entry) => entry.split('=', 1)[0]);
    if (env.length > 0) parts.push(`with the environment variables ${env.join(', ')} (values not shown)`);
    parts.push(`on the network ${typeof input['network'] === 'string' ? input['network'] : 'the engine chooses'}`);
    if (input['removeWhenDone'] === true) parts.push('removed when it exits');
    return `${parts.join(', ')}.`;
  },
  async run(input, context) {
    const image = String(input['image']);
    parseImageReference(image);
    const removeWhenDone = input['removeWhenDone'] === true;
    const options = await resolveRunOptions(
      { ports: listOf(input['ports']), env: listOf(input['env']), volumes: listOf(input['volumes']), network: typeof input['network'] === 'string' ? input['network'] : undefined },
      { cwd: context.cwd, environment: {}, engineIsLocal: context.engineIsLocal, autoRemove: removeWhenDone },
    );
    const { id } = await runInBackground(context.client, {
      image,
      cmd: listOf(input['command']),
      name: typeof input['name'] === 'string' ? input['name'] : undefined,
      autoRemove: removeWhenDone,
      env: options.env,
      labels: options.labels,
      networkMode: options.networkMode,
      config: options.config,
      hostConfig: options.hostConfig,
      credentials: context.credentials,
      signal: context.signal,
    });
    return { text: `Started container ${shortId(id)} from ${image}.` };
  },
};

export const ACT_TOOLS: readonly AgentTool[] = [startContainer, stopContainer, restartContainer, removeContainer, runContainer, pullImage, composeUp, composeDown];
