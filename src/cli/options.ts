/**
 * What each command's action receives, once its command line is parsed. The command table (`commands.ts`) builds
 * these and loads the actions lazily; the actions import only this file, so no action imports the table back.
 */
export interface RunOptions {
  image: string;
  cmd: string[];
  detach: boolean;
  interactive: boolean;
  tty: boolean;
  autoRemove: boolean;
  name: string | undefined;
  network: string | undefined;
  env: string[];
  labels: Record<string, string>;
  /** -p, -v, --env-file, -w, --entrypoint, -u, --restart (checked by engine/workflows/runOptions.ts when the run starts). */
  ports: string[];
  volumes: string[];
  envFiles: string[];
  workdir: string | undefined;
  entrypoint: string | undefined;
  user: string | undefined;
  restart: string | undefined;
}

export interface PsOptions {
  all: boolean;
  json: boolean;
  /** docker's `--format`: `table`, `json` or a Go template (checked before anything is listed). */
  format: string | undefined;
  quiet: boolean;
  noTrunc: boolean;
  filters: Record<string, string[]>;
  /** `-n N` / `-l`: the N most recently created containers, in any state. */
  last: number | undefined;
  /** `-s`: a SIZE column (the engine computes sizes, which takes longer). */
  size: boolean;
}

export interface StopOptions {
  ids: string[];
  timeoutSeconds: number | undefined;
  /** `-s`: instead of each container's own stop signal. */
  stopSignal: string | undefined;
}

export interface StopAllOptions {
  timeoutSeconds: number | undefined;
  filters: Record<string, string[]>;
}

export interface LogsCommandOptions {
  /** One container prints as `docker logs`; several are merged with name prefixes, as `docker compose logs`. */
  ids: readonly string[];
  noColor: boolean;
  noLogPrefix: boolean;
  follow: boolean;
  tail: number | 'all' | undefined;
  timestamps: boolean;
  /** As typed; read against the clock when the command runs (cli/timestamps.ts). */
  since: string | undefined;
  until: string | undefined;
  details: boolean;
}

export interface ImagesOptions {
  all: boolean;
  /** `--digests`: a DIGEST column, a row per digest. */
  digests: boolean;
  json: boolean;
  format: string | undefined;
  quiet: boolean;
  /** `-f` and a `REPOSITORY[:TAG]` argument (docker's `reference` filter). */
  filters: Record<string, string[]>;
}

export interface PullCommandOptions {
  image: string;
}

export interface CommitCommandOptions {
  id: string;
  repo: string | undefined;
  tag: string | undefined;
  message: string | undefined;
  author: string | undefined;
  changes: string[];
}

export interface WaitOptions {
  ids: string[];
}

export interface BuildCommandOptions {
  context: string;
  dockerfile: string | undefined;
  tags: string[];
  /** `K=V`, or `K` alone, which takes its value from berth's environment (and is left out when unset). */
  buildArgs: string[];
  target: string | undefined;
  noCache: boolean;
  network: string | undefined;
  quiet: boolean;
}

export interface StatsCommandOptions {
  ids: string[];
  all: boolean;
  noStream: boolean;
  /** `--no-trunc`: full container IDs. */
  noTrunc: boolean;
  /** docker's `--format`: `table`, `json` or a Go template over docker's stats fields. */
  format: string | undefined;
}

export interface TopCommandOptions {
  id: string;
  psArgs: string | undefined;
}

export interface DiffCommandOptions {
  id: string;
}

export interface McpCommandOptions {
  readonly allowWrite: boolean;
}

export interface HistoryCommandOptions {
  readonly image: string;
  readonly noTrunc: boolean;
  readonly quiet: boolean;
  readonly human: boolean;
  readonly format: string | undefined;
}

export interface EventsCommandOptions {
  since: string | undefined;
  until: string | undefined;
  filters: Record<string, string[]>;
  /** docker's `--format`: `json` or a Go template over the engine's event message. */
  format: string | undefined;
}

export interface PortForwardCommandOptions {
  container: string;
  /** `[LOCAL:]PORT` as given; read by the engine client's parser when the command runs. */
  ports: string[];
  helperImage: string | undefined;
}
