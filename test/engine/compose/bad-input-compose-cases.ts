// The bad-input rows of Compose (issue 11): what berth says, word for word. Asserted by
// test/engine/compose/bad-input-compose.test.ts (files on disk, the real PATH, the private dockerd, the built CLI).
import type { BadInputCase } from '../engine/bad-input-cases';

const API_ONLY = 'Its group actions (Start, Stop, Restart, Remove, Logs) work without them, through the engine';

export const COMPOSE_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'compose-yaml-error',
    category: 'Compose',
    action: 'Compose Up / Down / … (before any process starts)',
    input: 'services:\\n  web:\\n    image: [a\\n  db: {}',
    kind: 'error',
    errorKind: 'yaml',
    message: '<file>: YAML error at line 4, column 3: Flow sequence in block collection must be sufficiently indented and end with a ]',
  },
  {
    id: 'compose-not-compose',
    category: 'Compose',
    action: 'Compose Up / Down / …',
    input: 'name: x\\nversion: 1',
    kind: 'error',
    errorKind: 'not-compose',
    message: '<file> is not a Compose file: it has neither "services:" nor "include:". A Compose file is a YAML map with a "services:" (or "include:") key',
  },
  {
    id: 'compose-unknown-service',
    category: 'Compose',
    action: 'Compose Up – Select Services / berth-compose task',
    input: 'services: ["api"] (the file has db, web)',
    kind: 'error',
    errorKind: 'unknown-service',
    message: 'No service "api" in <file>. Services there: db, web',
  },
  {
    id: 'compose-unknown-profile',
    category: 'Compose',
    action: 'Compose Up – Select Profiles / berth-compose task',
    input: 'profiles: ["prod"] (the file has debug)',
    kind: 'error',
    errorKind: 'unknown-profile',
    message: 'No service uses the profile "prod" in <file>. Profiles there: debug',
  },
  {
    id: 'compose-no-implementation',
    category: 'Compose',
    action: 'Compose Up / Down / …',
    input: 'none of docker compose, docker-compose, podman compose, podman-compose on the PATH',
    kind: 'error',
    errorKind: 'not-found',
    message:
      'No Compose implementation found: tried "docker compose", "docker-compose", "podman compose", "podman-compose" on the PATH. Install one (the Docker Compose plugin, or e.g. `apt-get install docker-compose` or `apt-get install podman-compose`), or point berth.compose.implementation at the one you have. The group actions (start, stop, restart, remove) need none',
  },
  {
    id: 'compose-files-gone',
    category: 'Compose',
    action: 'Compose Up / Down / … on a project group',
    input: 'a project whose compose file was deleted after `up`',
    kind: 'error',
    errorKind: 'missing',
    message: `The compose files of <project> no longer exist: <file>. ${API_ONLY}`,
  },
  {
    id: 'compose-unknown-project',
    category: 'Compose',
    action: 'compose stop / start / restart / rm / logs',
    input: 'berth-no-such-project',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No Compose project named "berth-no-such-project" on this engine. Projects with containers here: <projects>',
  },
  {
    id: 'compose-engine-unreachable',
    category: 'Compose',
    action: 'compose ls / Compose Up (before any process starts)',
    input: '--host unix:///<dir>/nothing.sock',
    kind: 'error',
    errorKind: 'unreachable',
    message: 'Cannot reach the engine at unix:///<dir>/nothing.sock: there is no socket at that path. Start the engine (Docker or Podman), or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one',
  },
];
