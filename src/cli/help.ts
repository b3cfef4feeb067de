/** Help texts and docs/cli.md's command table, generated from the command table so they cannot drift from the parser. */
import { helpFlag, type FlagSpec } from './args';
import { commandEntries, findCommand, globalFlags, type CommandName } from './commands';

export function helpText(topic: CommandName | undefined): string {
  return topic === undefined ? overview() : commandHelp(topic);
}

function overview(): string {
  const width = Math.max(...commandEntries.map(({ name }) => name.length));
  return [
    'Usage:  berth [OPTIONS] COMMAND',
    '',
    'Containers and images from Docker Engine or Podman, over the Engine HTTP API.',
    '',
    'Options:',
    ...flagLines([...globalFlags, helpFlag]),
    '',
    'Commands:',
    ...commandEntries.map(({ name, entry }) => `  ${name.padEnd(width)}  ${entry.summary}`),
    '',
    'Environment: DOCKER_HOST, DOCKER_CONTEXT, DOCKER_CONFIG, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH.',
    "Run 'berth COMMAND --help' for more information on a command.",
    '',
  ].join('\n');
}

/** `berth volume` alone: the group's commands, like `docker volume`. */
export function groupHelpText(group: string): string {
  const members = commandEntries.filter(({ name }) => name.startsWith(`${group} `));
  const width = Math.max(...members.map(({ name }) => name.length - group.length - 1));
  return [
    `Usage:  berth ${group} COMMAND`,
    '',
    'Commands:',
    ...members.map(({ name, entry }) => `  ${name.slice(group.length + 1).padEnd(width)}  ${entry.summary}`),
    '',
    `Run 'berth ${group} COMMAND --help' for more information on a command.`,
    '',
  ].join('\n');
}

function commandHelp(name: CommandName): string {
  const found = findCommand(name);
  if (!found) return overview();
  const { entry } = found;
  return [`Usage:  ${entry.usage}`, '', `${entry.summary}.`, '', 'Options:', ...flagLines([...entry.flagSpecs, helpFlag]), ''].join('\n');
}

function flagLines(flags: readonly FlagSpec[]): string[] {
  const left = flags.map((flag) => {
    const names = `${flag.short ? `-${flag.short}, ` : '    '}--${flag.long}`;
    return flag.kind === 'boolean' ? names : `${names} ${flag.valueName ?? 'VALUE'}`;
  });
  const width = Math.max(...left.map((text) => text.length));
  return flags.map((flag, index) => `  ${(left[index] as string).padEnd(width)}  ${flag.description}`);
}

/** docs/cli.md's command table (between its markers), one row per command with its flags. */
export function cliDocCommandTable(): string {
  const escape = (text: string): string => text.replace(/\|/g, '\\|');
  const flagSummary = (flag: FlagSpec): string => {
    const names = flag.short ? `-${flag.short}, --${flag.long}` : `--${flag.long}`;
    return flag.kind === 'boolean' ? names : `${names} ${flag.valueName ?? 'VALUE'}`;
  };
  const rows = commandEntries.map(({ entry }) => {
    const flags = entry.flagSpecs.map((flag) => `\`${escape(flagSummary(flag))}\``).join(', ');
    const what = `${entry.summary}. ${entry.details}${flags ? ` Options: ${flags}.` : ''}`;
    return `| \`${escape(entry.usage)}\` | ${escape(what)} |`;
  });
  return ['| command | what it does |', '| --- | --- |', ...rows, "| `berth help [COMMAND]`, `berth --help`, `berth COMMAND --help`, `berth --version` | Prints usage, or berth's version. |"].join('\n');
}
