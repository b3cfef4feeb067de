/**
 * The options step's text and profiles, vscode-free: `-p 8080:80 -e KEY=VALUE -v ./src:/src --restart always` read
 * with docker run's flag names into RunOptionsInput (each value checked as the CLI checks it), the reverse for a
 * profile's summary, and the `berth.run.profiles` entries that apply to an image.
 */
import { splitCommandLine } from '../common/argv';
import { checkEnvEntry, parsePortSpec, parseRestartPolicy, parseVolumeSpec, type RunOptionsInput } from '../engine';
import { droppedPortsWarning } from '../model/ports';

/** A named option set from `berth.run.profiles`; `image` limits it to one repository (any tag), all images when absent. */
export interface RunProfile extends RunOptionsInput {
  readonly name: string;
  readonly image?: string | undefined;
}

type ListKey = 'ports' | 'env' | 'envFiles' | 'volumes';
type ValueKey = 'network' | 'workdir' | 'entrypoint' | 'user' | 'restart';
const LIST_FLAGS: Readonly<Record<string, ListKey>> = { '-p': 'ports', '--publish': 'ports', '-e': 'env', '--env': 'env', '--env-file': 'envFiles', '-v': 'volumes', '--volume': 'volumes' };
const VALUE_FLAGS: Readonly<Record<string, ValueKey>> = { '--network': 'network', '-w': 'workdir', '--workdir': 'workdir', '--entrypoint': 'entrypoint', '-u': 'user', '--user': 'user', '--restart': 'restart' };
const FLAG_OF: Readonly<Record<ListKey | ValueKey, string>> = { ports: '-p', env: '-e', envFiles: '--env-file', volumes: '-v', network: '--network', workdir: '-w', entrypoint: '--entrypoint', user: '-u', restart: '--restart' };

/** Reads docker run flags; throws a message naming the flag or value it cannot take. */
export function parseRunOptionsText(text: string, cwd: string): RunOptionsInput {
  const words = splitCommandLine(text);
  const lists: Record<ListKey, string[]> = { ports: [], env: [], envFiles: [], volumes: [] };
  const values: Partial<Record<ValueKey, string>> = {};
  const labels: Record<string, string> = {};
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = equals === -1 ? word : word.slice(0, equals);
    const takeValue = (): string => {
      if (equals !== -1) return word.slice(equals + 1);
      const next = words[++index];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    const list = LIST_FLAGS[flag];
    const single = VALUE_FLAGS[flag];
    if (list) lists[list].push(takeValue());
    else if (single) values[single] = takeValue();
    else if (flag === '-l' || flag === '--label') {
      const label = takeValue();
      const at = label.indexOf('=');
      if (at <= 0) throw new Error(`label "${label}" is not KEY=VALUE`);
      labels[label.slice(0, at)] = label.slice(at + 1);
    } else {
      throw new Error(`"${word}" is not a run option here: use -p, -e, --env-file, -v, --network, -w, --entrypoint, -u, --restart or -l`);
    }
  }
  lists.env.forEach((entry) => checkEnvEntry(entry));
  lists.ports.forEach((port) => parsePortSpec(port));
  lists.volumes.forEach((volume) => parseVolumeSpec(volume, cwd));
  if (values.restart !== undefined) parseRestartPolicy(values.restart);
  if (values.workdir !== undefined && !values.workdir.startsWith('/')) throw new Error(`the working directory "${values.workdir}" is not an absolute path`);
  return { ...lists, ...values, ...(Object.keys(labels).length > 0 ? { labels } : {}) };
}

/** The options as docker run flags, for the step's input box and a profile's description. */
export function formatRunOptions(options: RunOptionsInput): string {
  const words: string[] = [];
  const quote = (value: string): string => (value === '' || /[\s"'\\]/.test(value) ? `"${value.replace(/(["\\])/g, '\\$1')}"` : value);
  for (const key of ['ports', 'env', 'envFiles', 'volumes'] as const) for (const value of options[key] ?? []) words.push(FLAG_OF[key], quote(value));
  for (const key of ['network', 'workdir', 'entrypoint', 'user', 'restart'] as const) {
    const value = options[key];
    if (value !== undefined) words.push(FLAG_OF[key], quote(value));
  }
  for (const [key, value] of Object.entries(options.labels ?? {})) words.push('-l', quote(`${key}=${value}`));
  return words.join(' ');
}

/** The profiles that apply to an image: those without `image`, and those naming its repository. */
export function profilesFor(profiles: readonly RunProfile[], image: string): RunProfile[] {
  const repository = image.replace(/@.*$/, '').replace(/:[^:/]*$/, '');
  return profiles.filter((profile) => profile.image === undefined || profile.image === image || profile.image === repository);
}

/** Only well-formed profiles from the setting (a hand-edited entry without a name is left out). */
export function readProfiles(value: unknown): RunProfile[] {
  return Array.isArray(value) ? value.filter((entry): entry is RunProfile => typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string') : [];
}

/** What the options box warns of as typed without refusing: ports that the typed network (`none`) drops. */
export function typedOptionsWarning(options: RunOptionsInput): string | undefined {
  return droppedPortsWarning(options.network?.trim(), options.ports);
}
