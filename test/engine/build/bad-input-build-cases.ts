// The bad-input rows of builds and run options (issue 12): what berth says, word for word, on the private engines.
// Asserted by test/engine/build/cli-build.test.ts, build-api.test.ts, test/engine/cli/run-options.test.ts and (the
// questions the extension asks) test/integration/suite/build.test.ts and run-options.test.ts; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

const category = 'Builds and run options' as const;

export const BUILD_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'build-context-large',
    category,
    action: 'Build Image…',
    input: 'a context above berth.build.contextWarningMB (default 500)',
    kind: 'outcome',
    message: 'A modal question first, naming the size, the file count and the three biggest top-level folders, with "Open .dockerignore"; declining sends nothing',
  },
  {
    id: 'build-context-missing',
    category,
    action: 'build',
    input: '<path> (no such folder)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'unable to prepare context: path "<path>" not found. Give the folder to build from (the build context), e.g. `.`',
  },
  {
    id: 'build-context-is-file',
    category,
    action: 'build',
    input: '<path> (a file, e.g. the Dockerfile)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'unable to prepare context: context must be a directory: <path>. Give the folder to build from (the build context), e.g. `.`; a Dockerfile elsewhere goes after -f',
  },
  {
    id: 'build-dockerfile-missing',
    category,
    action: 'build -f',
    input: '<path> (no such file)',
    kind: 'error',
    errorKind: 'not-found',
    message: 'Cannot locate specified Dockerfile: <path>. Check the path given with -f (it is relative to the current folder, not to the context)',
  },
  {
    id: 'build-from-unpullable',
    category,
    action: 'build',
    input: 'FROM 127.0.0.1:1/berth/nothing-here:1',
    kind: 'error',
    errorKind: 'server',
    message:
      'Get "http://127.0.0.1:1/v2/": dial tcp 127.0.0.1:1: connect: connection refused (in Step 1/1 : FROM 127.0.0.1:1/berth/nothing-here:1). The base image could not be pulled: check its name and that its registry answers, and sign in if it is private',
  },
  {
    id: 'build-run-fails',
    category,
    action: 'build',
    input: 'RUN echo about to fail && exit 7',
    kind: 'error',
    errorKind: 'server',
    message:
      "The command '/bin/sh -c echo about to fail && exit 7' returned a non-zero code: 7 (in Step 2/2 : RUN echo about to fail && exit 7). Fix the command in that step, then build again",
  },
  {
    id: 'build-buildkit-syntax',
    category,
    action: 'build (dockerd classic builder)',
    input: 'RUN --mount=type=tmpfs,target=/scratch …',
    kind: 'error',
    errorKind: 'server',
    message:
      "the --mount option requires BuildKit. Refer to https://docs.docker.com/go/buildkit/ to learn how to build images with BuildKit enabled. The engine's classic builder does not understand `RUN --mount`. Build with BuildKit (docker buildx build), or on Podman, whose builder (Buildah) accepts it",
  },
  {
    id: 'build-cancelled',
    category,
    action: 'build',
    input: 'cancelled while a RUN step runs',
    kind: 'outcome',
    message: "The request is closed (the build rejects as cancelled); dockerd stops and removes the step's container, and no image is tagged",
  },
  {
    id: 'run-port-out-of-range',
    category,
    action: 'run -p',
    input: '70000:80',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'port 70000 is out of range. Ports go from 1 to 65535',
  },
  {
    id: 'run-port-taken',
    category,
    action: 'run -p',
    input: '127.0.0.1:<port>:80 (a port something listens on)',
    kind: 'error',
    errorKind: 'conflict',
    message: 'port <port> is already in use on this machine. Stop what listens there, or publish another host port (or leave it out for a random one)',
  },
  {
    id: 'run-bind-missing',
    category,
    action: 'run -v',
    input: '/no/such/dir:/x',
    kind: 'error',
    errorKind: 'bad-request',
    message: '/no/such/dir does not exist on this machine. Create it first, or fix the path of the bind mount (a named volume is written without a leading / or .)',
  },
  {
    id: 'run-env-empty-key',
    category,
    action: 'Run Container (the options box, as typed)',
    input: '-e =x',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'invalid environment variable "=x". Write KEY=VALUE, or KEY alone to pass on its value from here',
  },
  {
    id: 'run-ports-network-none-typed',
    category,
    action: 'Run Container (the options box, as typed)',
    input: '-p 8080:80 --network none',
    kind: 'outcome',
    message: 'A warning under the box, the run still allowed: Network none drops published ports: 8080:80 will not be reachable from the host. Run on another network (the --network option, or the berth.run.network setting) to publish them.',
  },
  {
    id: 'run-volume-other-home',
    category,
    action: 'run -v (and the options box, as typed)',
    input: '~bob/cache:/x',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'invalid volume "~bob/cache:/x": "~bob" names another user\'s home folder, which is not expanded here. Write the full host path instead, or ~/… for your own home folder',
  },
  {
    id: 'run-env-file-unreadable',
    category,
    action: 'run --env-file (and the options step)',
    input: '<path> (no such file)',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'cannot read env file <path>: it does not exist. Check the path (relative paths start from the current folder)',
  },
  {
    id: 'run-workdir-relative',
    category,
    action: 'run -w',
    input: 'relative',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'the working directory "relative" is not an absolute path. Give an absolute path in the container, e.g. /app',
  },
  {
    id: 'run-restart-invalid',
    category,
    action: 'run --restart',
    input: 'sometimes',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'invalid restart policy "sometimes". Use no, always, unless-stopped or on-failure[:MAX_RETRIES]',
  },
  {
    id: 'run-restart-with-rm',
    category,
    action: 'run --rm --restart',
    input: 'always',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'a restart policy (always) and remove-when-done contradict each other. Choose one of them',
  },
  {
    id: 'build-stdin-dockerfile-large',
    category,
    action: 'build -',
    input: 'more than 4 MiB on stdin that is not a tar archive',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'the Dockerfile on stdin is larger than 4 MiB, the most berth reads from stdin for a Dockerfile. stdin that is not a tar archive is read as a Dockerfile: pipe a tar of the build context instead (tar -c . | berth build -), or build from a folder',
  },
  {
    id: 'build-stdin-twice',
    category,
    action: 'build -f - -',
    input: 'stdin as both the context and the Dockerfile',
    kind: 'outcome',
    message: "invalid argument: can't use stdin for both build context and dockerfile (exit 1, as docker; nothing is read)",
  },
];

/** A row by its id (what a unit test compares a refusal with, word for word). */
export function buildRow(id: string): BadInputCase {
  const row = BUILD_BAD_INPUT_CASES.find((entry) => entry.id === id);
  if (!row) throw new Error(`no bad-input row ${id}`);
  return row;
}
