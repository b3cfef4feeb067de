// The bad-input table: each row is an input that was tried and what the user then gets. The bad-input-*.test.ts
// suites assert every row against the real engines; docs/bad-input.md is printed from these
// same rows by bad-input-table.ts, and bad-input-doc.test.ts fails when the two drift apart.
//
// `message` is EngineError.message exactly: what the CLI prints after `berth: ` and the extension shows. Values that
// differ per run are written as <placeholders> and filled in by the tests. Rows of kind 'outcome' are inputs that
// are not errors; `message` then says what happens instead.
import { AGENT_BAD_INPUT_CASES } from '../tools/bad-input-agent-cases';
import { COMPOSE_BAD_INPUT_CASES } from '../compose/bad-input-compose-cases';
import { ARCHIVE_CASES } from './files/bad-input-archive-cases';
import { FILE_CASES } from '../files/bad-input-files-cases';
import { LOGS_BAD_INPUT_CASES } from '../logs/bad-input-logs-cases';
import { SECURITY_CASES } from './connection/bad-input-security-cases';

export type BadInputCategory =
  | 'Bad image references'
  | 'Bad container names'
  | 'Unknown ids'
  | 'Ambiguous prefixes'
  | 'Empty commands'
  | 'Huge output'
  | 'Binary output'
  | 'Invalid UTF-8'
  | 'The engine gone'
  | 'A socket without permission'
  | 'Failed registry auth'
  | 'A remote registry over plain HTTP'
  | 'TLS and remote engines'
  | 'The CLI around a run'
  | 'Volumes, networks and prune'
  | 'Files in containers'
  | 'Live stats'
  | 'Untrusted settings, transports and output'
  | 'Unbounded input'
  | 'The workbench'
  | 'Compose'
  | 'Builds and run options'
  | 'Registries people use'
  | 'Agents'
  | 'Image layers'
  | 'Logs'
  | 'Port forwarding'
  | 'Debugging';

export interface BadInputCase {
  readonly id: string;
  readonly category: BadInputCategory;
  /** The operation, as the CLI spells it. */
  readonly action: string;
  /** What was given, shown in code style. */
  readonly input: string;
  readonly kind: 'error' | 'outcome';
  /** For errors: EngineError.kind. */
  readonly errorKind?: string;
  readonly message: string;
}

const HOST_HINT = 'point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one';
const CLOSED = 'the engine closed the connection. Check that the engine is healthy and try again';
const SIGN_IN = 'Sign in to the registry (Berth: Sign In to Registry, or docker login) and try again';
const NO_CONTAINER = 'Check the container id or name; the container may have been removed';
const WRONG_CREDENTIALS = 'The registry refused these credentials: check the user name and password, then sign in again';
const sshHint = (login: string): string =>
  `Check that \`ssh ${login} docker version\` works in a terminal: it must log in without a password prompt and find docker on the far side`;

import { CLI_BAD_INPUT_CASES } from '../cli/bad-input-cli-cases';
import { STATS_BAD_INPUT_CASES } from '../stats/bad-input-stats-cases';
import { STORAGE_BAD_INPUT_CASES } from '../volumes/bad-input-storage-cases';
import { BUILD_BAD_INPUT_CASES } from '../build/bad-input-build-cases';
import { WORKBENCH_BAD_INPUT_CASES } from './bad-input-workbench-cases';
import { REGISTRIES_BAD_INPUT_CASES } from '../registries/bad-input-registries-cases';
import { SCAFFOLD_BAD_INPUT_CASES } from '../build/bad-input-scaffold-cases';
import { LAYERS_BAD_INPUT_CASES } from './files/bad-input-layers-cases';
import { FORWARD_BAD_INPUT_CASES } from './workflows/bad-input-forward-cases';
import { DEBUG_BAD_INPUT_CASES } from './workflows/bad-input-debug-cases';
import { PYTHON_DEBUG_BAD_INPUT_CASES } from './workflows/bad-input-python-debug-cases';
import { CHANGES_BAD_INPUT_CASES } from '../changes/bad-input-changes-cases';

const CORE_CASES: readonly BadInputCase[] = [
  {
    id: 'image-uppercase',
    category: 'Bad image references',
    action: 'pull / run',
    input: 'Busybox:latest',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "Busybox:latest": the repository name must be lowercase',
  },
  {
    id: 'image-empty-tag',
    category: 'Bad image references',
    action: 'pull',
    input: 'busybox:',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "busybox:": the tag after ":" is empty',
  },
  {
    id: 'image-whitespace',
    category: 'Bad image references',
    action: 'pull',
    input: 'busy box',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "busy box": it contains whitespace',
  },
  {
    id: 'image-empty',
    category: 'Bad image references',
    action: 'pull',
    input: '(empty)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "": it is empty',
  },
  {
    id: 'image-bad-digest',
    category: 'Bad image references',
    action: 'pull',
    input: 'busybox@sha256:abc',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'Invalid image reference "busybox@sha256:abc": "sha256:abc" is not a digest (expected algorithm:hex, e.g. sha256:<64 hex digits>)',
  },
  {
    id: 'image-two-tags',
    category: 'Bad image references',
    action: 'pull',
    input: '127.0.0.1:5055/berth/busybox:1.0:extra',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'Invalid image reference "127.0.0.1:5055/berth/busybox:1.0:extra": "busybox:1.0" may hold only lowercase letters, digits and single ".", "_", "__" or "-" separators between them',
  },
  {
    id: 'image-too-long',
    category: 'Bad image references',
    action: 'pull',
    input: '<reference> (300 × "a")',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "<reference>": the name is longer than 255 characters',
  },
  {
    id: 'image-missing',
    category: 'Bad image references',
    action: 'pull (signed in)',
    input: '<registry>/berth/missing:1.0',
    kind: 'error',
    errorKind: 'not-found',
    message:
      'manifest for <registry>/berth/missing:1.0 not found: manifest unknown: manifest unknown. Check the image name and tag, and sign in if the repository is private',
  },
  {
    id: 'name-space',
    category: 'Bad container names',
    action: 'run --name',
    input: 'my container',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "my container": " " is not allowed (use letters, digits, "_", "." and "-")',
  },
  {
    id: 'name-leading-dash',
    category: 'Bad container names',
    action: 'run --name',
    input: '-web',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "-web": it must start with an ASCII letter or a digit',
  },
  {
    id: 'name-too-short',
    category: 'Bad container names',
    action: 'run --name',
    input: 'a',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "a": it must be at least 2 characters long',
  },
  {
    id: 'name-slash',
    category: 'Bad container names',
    action: 'run --name',
    input: 'team/web',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "team/web": "/" is not allowed (use letters, digits, "_", "." and "-")',
  },
  {
    id: 'name-non-ascii',
    category: 'Bad container names',
    action: 'run --name / create',
    input: 'web-ü',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "web-ü": "ü" is not ASCII (use ASCII letters, digits, "_", "." and "-")',
  },
  {
    id: 'name-non-ascii-start',
    category: 'Bad container names',
    action: 'run --name / create',
    input: 'über',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid container name "über": it must start with an ASCII letter or a digit',
  },
  {
    id: 'name-in-use',
    category: 'Bad container names',
    action: 'run --name',
    input: '<name of an existing container>',
    kind: 'error',
    errorKind: 'conflict',
    message:
      'Conflict. The container name "/<name>" is already in use by container "<id>". You have to remove (or rename) that container to be able to reuse that name. Choose another name or remove the existing container',
  },
  {
    id: 'unknown-container',
    category: 'Unknown ids',
    action: 'inspect / stop / rm',
    input: '0123456789ab',
    kind: 'error',
    errorKind: 'not-found',
    message: `No such container: 0123456789ab. ${NO_CONTAINER}`,
  },
  {
    id: 'unknown-container-logs',
    category: 'Unknown ids',
    action: 'logs -f',
    input: 'no-such-container',
    kind: 'error',
    errorKind: 'not-found',
    message: `No such container: no-such-container. ${NO_CONTAINER}`,
  },
  {
    id: 'unknown-image',
    category: 'Unknown ids',
    action: 'rmi',
    input: 'berth-test/nope:1',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such image: berth-test/nope:1. Pull it first, or check the image name and tag',
  },
  {
    id: 'unknown-image-inspect',
    category: 'Unknown ids',
    action: 'image inspect',
    input: 'berth-test/nope:1',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such image: berth-test/nope:1. Pull it first, or check the image name and tag',
  },
  {
    id: 'ambiguous-prefix',
    category: 'Ambiguous prefixes',
    action: 'inspect / stop',
    input: '<one character two container ids start with>',
    kind: 'error',
    errorKind: 'bad-request',
    message: "Multiple IDs found with provided prefix: <prefix>. Give more characters of the id, or use the container's name",
  },
  {
    id: 'empty-command-list',
    category: 'Empty commands',
    action: 'run',
    input: '<image> with no command',
    kind: 'outcome',
    message: "No message: the image's default command (CMD) runs",
  },
  {
    id: 'empty-command-string',
    category: 'Empty commands',
    action: 'run',
    input: '<image> ""',
    kind: 'error',
    errorKind: 'bad-request',
    message: "The command is empty: give a program to run, or leave it out to run the image's default",
  },
  {
    id: 'empty-command-blank',
    category: 'Empty commands',
    action: 'run',
    input: '<image> "  " ""',
    kind: 'error',
    errorKind: 'bad-request',
    message: "The command is empty: give a program to run, or leave it out to run the image's default",
  },
  {
    id: 'empty-exec',
    category: 'Empty commands',
    action: 'exec',
    input: '<container> with no command',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'No exec command specified. Check the values given',
  },
  {
    id: 'huge-output',
    category: 'Huge output',
    action: 'run',
    input: 'yes "$(printf %01000d 0)" | head -c 33554432',
    kind: 'outcome',
    message: 'No message: all 33,554,432 bytes arrive, in order (SHA-256 checked), and the exit status is 0',
  },
  {
    id: 'long-line-logs',
    category: 'Huge output',
    action: 'Show Logs / Open Logs in Editor',
    input: "head -c 40000 /dev/zero | tr '\\0' x; echo",
    kind: 'outcome',
    message:
      'No message: the 40,000-byte line shows whole and without timestamps, byte for byte as `docker logs` prints it. dockerd stores it as 16 KiB parts (Podman as 8 KiB parts), each with a timestamp of its own; Berth joins the parts again',
  },
  {
    id: 'binary-output',
    category: 'Binary output',
    action: 'run / logs',
    input: 'cat /bin/busybox',
    kind: 'outcome',
    message:
      'No message. run shows the bytes exactly as written (it attaches to the container, as docker run does); logs afterwards come through dockerd’s json-file log driver, which stores text, so there every byte that is not UTF-8 arrives as U+FFFD while the text parts arrive intact',
  },
  {
    id: 'invalid-utf8',
    category: 'Invalid UTF-8',
    action: 'run / logs',
    input: "printf '\\377\\376caf\\303\\251\\303\\n'",
    kind: 'outcome',
    message: 'No message. run shows the bytes exactly as printed; logs afterwards show each invalid byte as U+FFFD and valid UTF-8 unchanged: `��café�`',
  },
  {
    id: 'engine-no-socket',
    category: 'The engine gone',
    action: 'any command',
    input: '--host unix:///<dir>/nothing.sock',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at unix:///<dir>/nothing.sock: there is no socket at that path. Start the engine (Docker or Podman), or ${HOST_HINT}`,
  },
  {
    id: 'engine-stale-socket',
    category: 'The engine gone',
    action: 'any command',
    input: '--host unix:///<dir>/stale.sock (left by a dead engine)',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at unix:///<dir>/stale.sock: the connection was refused (is the engine running?). Start the engine, or ${HOST_HINT}`,
  },
  {
    id: 'engine-tcp-refused',
    category: 'The engine gone',
    action: 'any command',
    input: '--host tcp://127.0.0.1:1',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at tcp://127.0.0.1:1: the connection was refused (is the engine running?). Start the engine, or ${HOST_HINT}`,
  },
  {
    id: 'engine-killed',
    category: 'The engine gone',
    action: 'logs -f / pull / events',
    input: 'dockerd killed with SIGKILL mid-stream',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at <host>: ${CLOSED}`,
  },
  {
    id: 'run-container-removed',
    category: 'The engine gone',
    action: 'run (Podman)',
    input: 'the container removed with force while a stop is under way',
    kind: 'error',
    errorKind: 'not-found',
    message: 'The container <id> was removed before the engine reported its exit status. Something else removed it while it ran (a prune, or a remove with force)',
  },
  {
    id: 'bad-host',
    category: 'The engine gone',
    action: 'any command',
    input: '--host tcp//127.0.0.1:2375',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid engine host "tcp//127.0.0.1:2375": it has no scheme. Use unix:///path/to/socket, tcp://host:port or ssh://user@host',
  },
  {
    id: 'npipe-on-linux',
    category: 'The engine gone',
    action: 'any command, on Linux or macOS',
    input: '--host npipe:////./pipe/docker_engine',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      "Cannot reach the engine at npipe:////./pipe/docker_engine: it is a Windows named pipe, and this machine runs linux, which has none. On this machine use the engine's socket (unix:///var/run/docker.sock, or leave the host empty to find it), tcp://host:port or ssh://user@host",
  },
  {
    id: 'socket-permission',
    category: 'A socket without permission',
    action: 'any command, as a user outside the docker group',
    input: 'unix://<socket> (srw-rw---- root:docker)',
    kind: 'error',
    errorKind: 'unreachable',
    message:
      "Cannot reach the engine at unix://<socket>: permission denied on the socket. Add your user to the docker group (sudo usermod -aG docker $USER, then log in again) or fix the socket's permissions",
  },
  {
    id: 'registry-wrong-password',
    category: 'Failed registry auth',
    action: 'pull',
    input: '<registry>/berth/busybox:1.0 with a wrong password',
    kind: 'error',
    errorKind: 'unauthorized',
    message: `unauthorized: authentication required. ${WRONG_CREDENTIALS}`,
  },
  {
    id: 'registry-wrong-password-push',
    category: 'Failed registry auth',
    action: 'push',
    input: '<registry>/berth/<name>:1 with a wrong password',
    kind: 'error',
    errorKind: 'unauthorized',
    message: `unauthorized: authentication required. ${WRONG_CREDENTIALS}`,
  },
  {
    id: 'registry-no-credentials',
    category: 'Failed registry auth',
    action: 'pull',
    input: '<registry>/berth/busybox:1.0, not signed in',
    kind: 'error',
    errorKind: 'unauthorized',
    message: `Head "http://<registry>/v2/berth/busybox/manifests/1.0": no basic auth credentials. ${SIGN_IN}`,
  },
  {
    id: 'registry-plain-http',
    category: 'A remote registry over plain HTTP',
    action: 'pull (signed in)',
    input: '192.0.2.10:5000/team/app:1 (in the engine’s insecure-registries)',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      "Refusing to send credentials to 192.0.2.10:5000: it is reached over plain HTTP, so the password would cross the network as clear text. Serve the registry over HTTPS (remove it from the engine's insecure-registries), or use it anonymously",
  },
  {
    id: 'tls-name-mismatch',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'tcp://127.0.0.2:<port>, certificate for IP 127.0.0.1',
    kind: 'error',
    errorKind: 'unreachable',
    message:
      "Cannot reach the engine at tcp://127.0.0.2:<port>: TLS failed (Hostname/IP does not match certificate's altnames: IP: 127.0.0.2 is not in the cert's list: 127.0.0.1). The engine's certificate is for 127.0.0.1: connect to tcp://127.0.0.1:<port>, or reissue the certificate with 127.0.0.2 among its subject alternative names",
  },
  {
    id: 'tls-untrusted-ca',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'DOCKER_CERT_PATH whose ca.pem did not sign the server',
    kind: 'error',
    errorKind: 'unreachable',
    message:
      'Cannot reach the engine at tcp://127.0.0.1:<port>: TLS failed (unable to verify the first certificate). The engine\'s certificate is not signed by the CA in <certpath>/ca.pem: put the CA that signed it there (DOCKER_CERT_PATH), or check that you are connecting to the right engine',
  },
  {
    id: 'tls-no-ca',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH without ca.pem',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      "DOCKER_TLS_VERIFY is set, but there is no ca.pem in <certpath> (DOCKER_CERT_PATH) to verify the engine at tcp://127.0.0.1:<port> with. Put the CA certificate that signed the engine's certificate there as ca.pem (with cert.pem and key.pem), or point DOCKER_CERT_PATH at the directory that holds them",
  },
  {
    id: 'tls-plain-to-tls',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'tcp://127.0.0.1:<port> without DOCKER_TLS_VERIFY',
    kind: 'error',
    errorKind: 'unreachable',
    message:
      'Cannot reach the engine at tcp://127.0.0.1:<port>: it speaks TLS, and this client sent plain HTTP (the engine said "Client sent an HTTP request to an HTTPS server"). Set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH to the directory holding ca.pem, cert.pem and key.pem (or use a docker context with TLS)',
  },
  {
    id: 'ssh-refused',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'ssh://nobody@127.0.0.1:<port> (key not accepted)',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at ssh://nobody@127.0.0.1:<port>: ssh exited with status 255: nobody@127.0.0.1: Permission denied (publickey). ${sshHint('-p <port> nobody@127.0.0.1')}`,
  },
  {
    id: 'ssh-no-server',
    category: 'TLS and remote engines',
    action: 'any command',
    input: 'ssh://root@127.0.0.1:1 (no sshd there)',
    kind: 'error',
    errorKind: 'unreachable',
    message: `Cannot reach the engine at ssh://root@127.0.0.1:1: ssh exited with status 255: ssh: connect to host 127.0.0.1 port 1: Connection refused. ${sshHint('-p 1 root@127.0.0.1')}`,
  },
  ...CLI_BAD_INPUT_CASES,
  ...STORAGE_BAD_INPUT_CASES,
  ...BUILD_BAD_INPUT_CASES,
  ...SCAFFOLD_BAD_INPUT_CASES,
  ...STATS_BAD_INPUT_CASES,
  ...WORKBENCH_BAD_INPUT_CASES,
  ...REGISTRIES_BAD_INPUT_CASES,
  ...CHANGES_BAD_INPUT_CASES,
];

export const BAD_INPUT_CASES: readonly BadInputCase[] = [...CORE_CASES, ...FILE_CASES, ...ARCHIVE_CASES, ...SECURITY_CASES, ...COMPOSE_BAD_INPUT_CASES, ...AGENT_BAD_INPUT_CASES, ...LAYERS_BAD_INPUT_CASES, ...LOGS_BAD_INPUT_CASES, ...FORWARD_BAD_INPUT_CASES, ...DEBUG_BAD_INPUT_CASES, ...PYTHON_DEBUG_BAD_INPUT_CASES];

export function badInputCase(id: string): BadInputCase {
  const found = BAD_INPUT_CASES.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no bad-input case "${id}"`);
  return found;
}

/** The case's message with its <placeholders> filled in. */
export function expectedMessage(id: string, values: Readonly<Record<string, string>> = {}): string {
  return badInputCase(id).message.replace(/<([a-z]+)>/g, (whole, key: string) => values[key] ?? whole);
}
