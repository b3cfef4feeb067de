/**
 * Reading compose files for their services and profiles, with the `yaml` package: several `-f` files merged in
 * order (a later file adds services and may override a service's profiles), and `include:` followed (paths relative
 * to the including file, cycles cut). Every error names the file, and a YAML error its line and column, so a bad
 * file is refused before any compose process starts. Plain Node.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Document } from 'yaml';
import { yaml, fsPromises } from '../connection';

/** What went wrong with a compose file, worded for the user; `line`/`column` are 1-based when YAML said where. */
export class ComposeFileError extends Error {
  override readonly name = 'ComposeFileError';
  constructor(
    message: string,
    readonly kind: 'yaml' | 'not-compose' | 'missing' | 'unknown-service' | 'unknown-profile',
    readonly file?: string | undefined,
    readonly line?: number | undefined,
    readonly column?: number | undefined,
  ) {
    super(message);
  }
}

export interface ComposeService {
  readonly name: string;
  readonly profiles: readonly string[];
}

export interface ComposeModel {
  /** The files given, then those they include, in the order read. */
  readonly files: readonly string[];
  /** Sorted by name. */
  readonly services: readonly ComposeService[];
  /** Every profile some service names, sorted. */
  readonly profiles: readonly string[];
}

export type ReadText = (path: string) => Promise<string>;
const readText: ReadText = (path) => fsPromises().readFile(path, 'utf8');

/** Reads `files` (absolute, or relative to the process's directory) as `docker compose -f A -f B` would. */
export async function readComposeModel(files: readonly string[], read: ReadText = readText): Promise<ComposeModel> {
  const services = new Map<string, string[]>();
  const seen: string[] = [];
  const visit = async (file: string, includedFrom: string | undefined): Promise<void> => {
    const path = resolve(file);
    if (seen.includes(path)) return;
    seen.push(path);
    let text: string;
    try {
      text = await read(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const where = includedFrom ? ` (included from ${includedFrom})` : '';
      const why = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a directory' : String((error as Error).message);
      throw new ComposeFileError(`Cannot read the compose file ${path}${where}: ${why}`, 'missing', path);
    }
    const document = yaml().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    const first = document.errors[0];
    if (first) {
      const at = first.linePos?.[0];
      const position = at ? `line ${at.line}, column ${at.col}` : 'an unknown position';
      const message = first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? first.message;
      throw new ComposeFileError(`${path}: YAML error at ${position}: ${message}`, 'yaml', path, at?.line, at?.col);
    }
    const { servicesNode, includes } = topLevel(document, path);
    for (const include of includes) await visit(isAbsolute(include) ? include : resolve(dirname(path), include), path);
    for (const [name, profiles] of servicesNode) {
      // A later file overrides the profiles of a service it names with `profiles:`, and keeps them when it is silent.
      const earlier = services.get(name);
      services.set(name, profiles ?? earlier ?? []);
    }
  };
  for (const file of files) await visit(file, undefined);
  const list = [...services.entries()].map(([name, profiles]) => ({ name, profiles })).sort((a, b) => a.name.localeCompare(b.name));
  const profiles = [...new Set(list.flatMap((service) => service.profiles))].sort();
  return { files: seen, services: list, profiles };
}

/** The `services` (name → its profiles, undefined when not set) and the `include` paths of one file. */
function topLevel(document: Document, path: string): { servicesNode: Array<[string, string[] | undefined]>; includes: string[] } {
  const { isMap, isScalar, isSeq } = yaml();
  const root = document.contents;
  const notCompose = (why: string): ComposeFileError =>
    new ComposeFileError(`${path} is not a Compose file: ${why}. A Compose file is a YAML map with a "services:" (or "include:") key`, 'not-compose', path);
  if (!isMap(root)) throw notCompose(root === null ? 'it is empty' : 'its top level is not a map');
  const servicesValue = root.get('services', true);
  const includeValue = root.get('include', true);
  if (servicesValue === undefined && includeValue === undefined) throw notCompose('it has neither "services:" nor "include:"');
  const servicesNode: Array<[string, string[] | undefined]> = [];
  if (servicesValue !== undefined && servicesValue !== null && !(isScalar(servicesValue) && servicesValue.value === null)) {
    if (!isMap(servicesValue)) throw notCompose('"services:" is not a map of service names');
    for (const pair of servicesValue.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const body = pair.value;
      const profilesNode: unknown = isMap(body) ? body.get('profiles', true) : undefined;
      const profiles = isSeq(profilesNode) ? profilesNode.items.map((item) => String(isScalar(item) ? item.value : item)) : undefined;
      servicesNode.push([name, profiles]);
    }
  }
  const includes: string[] = [];
  if (isSeq(includeValue)) {
    for (const item of includeValue.items) {
      if (isScalar(item)) includes.push(String(item.value));
      else if (isMap(item)) {
        const pathNode: unknown = item.get('path', true);
        if (isScalar(pathNode)) includes.push(String(pathNode.value));
        else if (isSeq(pathNode)) for (const entry of pathNode.items) if (isScalar(entry)) includes.push(String(entry.value));
      }
    }
  }
  return { servicesNode, includes };
}

/** Refuses services or profiles the files do not define, naming those they do. */
export function checkSelection(model: ComposeModel, selection: { services?: readonly string[] | undefined; profiles?: readonly string[] | undefined }): void {
  const known = new Set(model.services.map((service) => service.name));
  const unknownServices = (selection.services ?? []).filter((name) => !known.has(name));
  if (unknownServices.length > 0) {
    throw new ComposeFileError(
      `No service ${unknownServices.map((name) => `"${name}"`).join(', ')} in ${model.files.join(', ')}. Services there: ${[...known].join(', ') || 'none'}`,
      'unknown-service',
    );
  }
  const unknownProfiles = (selection.profiles ?? []).filter((name) => !model.profiles.includes(name));
  if (unknownProfiles.length > 0) {
    throw new ComposeFileError(
      `No service uses the profile ${unknownProfiles.map((name) => `"${name}"`).join(', ')} in ${model.files.join(', ')}. Profiles there: ${model.profiles.join(', ') || 'none'}`,
      'unknown-profile',
    );
  }
}

/**
 * The profiles to turn on so the chosen services start: Compose skips a service whose profiles are all off, and
 * older implementations (docker-compose 1.x, podman-compose) do so even when the service is named.
 */
export function profilesForServices(model: ComposeModel, services: readonly string[]): string[] {
  const chosen = new Set(services);
  const profiles = new Set<string>();
  for (const service of model.services) if (chosen.has(service.name) && service.profiles[0] !== undefined) profiles.add(service.profiles[0]);
  return [...profiles].sort();
}

/** What the group actions still offer when a project's files are gone; said in every such message. */
const API_ONLY = 'Its group actions (Start, Stop, Restart, Remove, Logs) work without them, through the engine';

/**
 * The compose files a project's labels name, refused when they say none or some no longer exist: a Compose command
 * needs them, the API group actions do not.
 */
export function projectFiles(project: { readonly name: string; readonly configFiles: readonly string[] }, exists: (path: string) => boolean = existsSync): readonly string[] {
  if (project.configFiles.length === 0) throw new ComposeFileError(`The containers of ${project.name} do not say which compose files made them. ${API_ONLY}`, 'missing');
  const gone = project.configFiles.filter((file) => !exists(file));
  if (gone.length > 0) throw new ComposeFileError(`The compose files of ${project.name} no longer exist: ${gone.join(', ')}. ${API_ONLY}`, 'missing', gone[0]);
  return project.configFiles;
}
