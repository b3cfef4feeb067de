/** Help texts, generated from the command specs so they cannot drift from what the parser accepts. */
import { helpFlag, type FlagSpec } from './args';
import { commandSpecs, findCommandSpec, globalFlags, type CommandName } from './commands';

export function helpText(topic: CommandName | undefined): string {
  return topic === undefined ? overview() : commandHelp(topic);
}

function overview(): string {
  const width = Math.max(...commandSpecs.map((spec) => spec.name.length));
  return [
    'Usage:  berth [OPTIONS] COMMAND',
    '',
    'Containers and images from Docker Engine or Podman, over the Engine HTTP API.',
    '',
    'Options:',
    ...flagLines([...globalFlags, helpFlag]),
    '',
    'Commands:',
    ...commandSpecs.map((spec) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
    '',
    'Environment: DOCKER_HOST, DOCKER_CONTEXT, DOCKER_CONFIG, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH.',
    "Run 'berth COMMAND --help' for more information on a command.",
    '',
  ].join('\n');
}

function commandHelp(name: CommandName): string {
  const spec = findCommandSpec(name);
  if (!spec) return overview();
  return [`Usage:  ${spec.usage}`, '', `${spec.summary}.`, '', 'Options:', ...flagLines([...spec.flags, helpFlag]), ''].join('\n');
}

function flagLines(flags: readonly FlagSpec[]): string[] {
  const left = flags.map((flag) => {
    const names = `${flag.short ? `-${flag.short}, ` : '    '}--${flag.long}`;
    return flag.kind === 'boolean' ? names : `${names} ${flag.valueName ?? 'VALUE'}`;
  });
  const width = Math.max(...left.map((text) => text.length));
  return flags.map((flag, index) => `  ${(left[index] as string).padEnd(width)}  ${flag.description}`);
}
