/**
 * Image references and container names, validated before they reach the engine so bad input gets a specific message.
 * Grammar after the distribution reference spec: `[registry[:port]/]path[:tag][@digest]`.
 */
import { validatedBy } from '../../common/errors';
import { EngineError } from '../connection';

export const DOCKER_HUB_REGISTRY = 'docker.io';

export interface ImageReference {
  /** `docker.io` for Docker Hub, else the host with its port, e.g. `127.0.0.1:5055`. */
  readonly registry: string;
  /** The path inside the registry; Docker Hub's official images get `library/`. */
  readonly repository: string;
  readonly tag: string | undefined;
  readonly digest: string | undefined;
  /** The name as the engine's `fromImage` takes it (registry and path, no tag, no digest). */
  readonly name: string;
}

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN_LABEL = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;
const PORT = /^[0-9]+$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const MAX_NAME_LENGTH = 255;

/** Returns what is wrong with an image reference, or undefined when it is valid. Suits input-box validation. */
export const validateImageReference: (reference: string) => string | undefined = validatedBy(parseImageReference);

/** Parses and normalizes an image reference. Throws EngineError('bad-request') saying what is wrong. */
export function parseImageReference(reference: string): ImageReference {
  const bad = (why: string): never => {
    throw new EngineError('bad-request', `Invalid image reference "${reference}": ${why}`);
  };
  if (reference.length === 0) bad('it is empty');
  if (/\s/.test(reference)) bad('it contains whitespace');
  if (reference.includes('://')) bad('leave out the scheme (write "registry.example.com/app", not "https://…")');

  let rest = reference;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) bad(`"${digest}" is not a digest (expected algorithm:hex, e.g. sha256:<64 hex digits>)`);
  }

  // The tag is after the last ':' that follows the last '/'; an earlier ':' belongs to the registry's port.
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const lastColon = rest.lastIndexOf(':');
  if (lastColon > lastSlash) {
    tag = rest.slice(lastColon + 1);
    rest = rest.slice(0, lastColon);
    if (!TAG.test(tag)) {
      bad(
        tag.length === 0
          ? 'the tag after ":" is empty'
          : `"${tag}" is not a valid tag (letters, digits, "_", "." and "-", at most 128, not starting with "." or "-")`,
      );
    }
  }
  if (rest.length === 0) bad('the repository name is missing');

  let registry = DOCKER_HUB_REGISTRY;
  let path = rest;
  const firstSlash = rest.indexOf('/');
  if (firstSlash !== -1) {
    const first = rest.slice(0, firstSlash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      validateRegistryHost(first, bad);
      registry = first;
      path = rest.slice(firstSlash + 1);
    }
  }
  for (const component of path.split('/')) {
    if (component.length === 0) bad('it has an empty path component ("//" or a trailing "/")');
    if (component !== component.toLowerCase()) bad('the repository name must be lowercase');
    if (!PATH_COMPONENT.test(component)) {
      bad(`"${component}" may hold only lowercase letters, digits and single ".", "_", "__" or "-" separators between them`);
    }
  }
  if (registry === 'index.docker.io') registry = DOCKER_HUB_REGISTRY;
  if (registry === DOCKER_HUB_REGISTRY && !path.includes('/')) path = `library/${path}`;
  const name = `${registry}/${path}`;
  if (rest.length > MAX_NAME_LENGTH) bad(`the name is longer than ${MAX_NAME_LENGTH} characters`);
  return { registry, repository: path, tag, digest, name };
}

function validateRegistryHost(host: string, bad: (why: string) => never): void {
  let hostname = host;
  const colon = host.lastIndexOf(':');
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1) bad(`registry "${host}" has an unclosed "["`);
    hostname = host.slice(1, close);
    const after = host.slice(close + 1);
    if (after.length > 0 && !(after.startsWith(':') && PORT.test(after.slice(1)))) bad(`registry "${host}" has a bad port`);
    return;
  }
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    if (!PORT.test(port)) bad(`registry "${host}" has a port that is not a number`);
    hostname = host.slice(0, colon);
  }
  for (const label of hostname.split('.')) {
    if (!DOMAIN_LABEL.test(label)) bad(`registry host "${hostname}" is not a valid host name`);
  }
}

/** The `fromImage` and `tag` query values of a pull, as the Go client derives them. */
export function pullParameters(reference: ImageReference): { fromImage: string; tag: string } {
  return { fromImage: familiarName(reference), tag: reference.digest ?? reference.tag ?? 'latest' };
}

/** The short form users write: `busybox` for `docker.io/library/busybox`, `user/app` for `docker.io/user/app`. */
export function familiarName(reference: ImageReference): string {
  if (reference.registry !== DOCKER_HUB_REGISTRY) return reference.name;
  return reference.repository.startsWith('library/') ? reference.repository.slice('library/'.length) : reference.repository;
}

/** The engine's rule for container and local volume names: `[a-zA-Z0-9][a-zA-Z0-9_.-]+`, ASCII only. */
function nameProblem(what: 'container' | 'volume', name: string): string | undefined {
  const prefix = `Invalid ${what} name "${name}"`;
  if (name.length === 0) return `${prefix}: it is empty`;
  const bare = what === 'container' && name.startsWith('/') ? name.slice(1) : name;
  if (bare.length < 2) return `${prefix}: it must be at least 2 characters long`;
  if (!/^[a-zA-Z0-9]/.test(bare)) return `${prefix}: it must start with an ASCII letter or a digit`;
  const offending = [...bare].find((character) => !/[a-zA-Z0-9_.-]/.test(character));
  if (offending === undefined) return undefined;
  // The engine's rule is ASCII only: "é" is a letter to the user, so say why it is refused.
  if ((offending.codePointAt(0) ?? 0) > 0x7f) return `${prefix}: "${offending}" is not ASCII (use ASCII letters, digits, "_", "." and "-")`;
  return `${prefix}: "${offending}" is not allowed (use letters, digits, "_", "." and "-")`;
}

/** Returns what is wrong with a container name, or undefined when the engine will accept it. */
export function validateContainerName(name: string): string | undefined {
  return nameProblem('container', name);
}

/**
 * What is wrong with a name for Create Volume, or undefined when the engine takes it; empty is fine (the engine
 * picks one). Said as the name is typed: the engine refused `bad/name` only after the driver and label steps.
 */
export function validateVolumeName(name: string): string | undefined {
  return name === '' ? undefined : nameProblem('volume', name);
}

/** Throws EngineError('bad-request') with the message of validateContainerName. */
export function assertValidContainerName(name: string): void {
  const problem = validateContainerName(name);
  if (problem) throw new EngineError('bad-request', problem);
}
