/** Wire shapes of the Engine API (the subset Berth uses) and the option bags of the client. */

export interface ContainerSummary {
  Id: string;
  Names: string[];
  Image: string;
  ImageID: string;
  Command: string;
  Created: number;
  Ports: Array<{ IP?: string; PrivatePort: number; PublicPort?: number; Type: string }>;
  Labels: Record<string, string> | null;
  State: ContainerState;
  Status: string;
  Mounts?: unknown[];
  NetworkSettings?: { Networks?: Record<string, unknown> | null } | null;
}

/** `stopping` is Podman's, while a stop is under way (its compat API reports Running: false then). */
export type ContainerState = 'created' | 'running' | 'paused' | 'restarting' | 'exited' | 'removing' | 'dead' | 'stopping';

export interface ContainerInspect {
  Id: string;
  Name: string;
  Created: string;
  Image: string;
  State: {
    Status: ContainerState;
    Running: boolean;
    Paused?: boolean;
    Restarting?: boolean;
    /** The main process's PID on the engine's host (0 when not running). */
    Pid?: number;
    ExitCode: number;
    StartedAt: string;
    FinishedAt: string;
    /** `Log`: the last checks (dockerd keeps 5), newest last. */
    Health?: { Status: string; Log?: Array<{ Output?: string; ExitCode?: number; End?: string }> | null };
  };
  Config: {
    Tty: boolean;
    Cmd: string[] | null;
    Env: string[] | null;
    Labels: Record<string, string> | null;
    Image: string;
    OpenStdin?: boolean;
    /** `{"80/tcp": {}}`: the ports the image declares with EXPOSE. */
    ExposedPorts?: Record<string, unknown> | null;
    /** The working directory of its processes (empty: the root). */
    WorkingDir?: string;
  };
  HostConfig: Record<string, unknown>;
  RestartCount?: number;
  [key: string]: unknown;
}

export interface ImageSummary {
  Id: string;
  ParentId: string;
  RepoTags: string[] | null;
  RepoDigests: string[] | null;
  Created: number;
  Size: number;
  Labels: Record<string, string> | null;
  Containers: number;
}

/** One entry of `GET /images/{id}/history`. `Id` is `<missing>` for steps not built on this engine. */
export interface ImageHistoryEntry {
  Id: string;
  /** Unix seconds. */
  Created: number;
  CreatedBy: string;
  Tags: string[] | null;
  Size: number;
  Comment: string;
}

export interface ImageInspect {
  Id: string;
  RepoTags: string[] | null;
  Created: string;
  Size: number;
  Config?: { Cmd?: string[] | null; Labels?: Record<string, string> | null; [key: string]: unknown };
  [key: string]: unknown;
}

export interface VersionInfo {
  Version: string;
  ApiVersion: string;
  MinAPIVersion?: string;
  Os: string;
  Arch: string;
  KernelVersion?: string;
  Components?: Array<{ Name: string; Version: string }>;
  [key: string]: unknown;
}

export interface PingInfo {
  /** The daemon's highest API version, from the `Api-Version` header. */
  apiVersion: string | undefined;
  osType: string | undefined;
  /** `Libpod/...` for Podman. */
  server: string | undefined;
  /** Set by Podman only. */
  libpodApiVersion: string | undefined;
}

/**
 * The body of `POST /containers/create`. Berth's own helpers set NetworkMode `none` or `container:<id>`; a container
 * the user runs keeps the engine's default network unless they choose one, as `docker run` does.
 */
export interface ContainerCreateBody {
  Image: string;
  Cmd?: string[];
  Entrypoint?: string[];
  Env?: string[];
  Tty?: boolean;
  OpenStdin?: boolean;
  AttachStdin?: boolean;
  AttachStdout?: boolean;
  AttachStderr?: boolean;
  Labels?: Record<string, string>;
  WorkingDir?: string;
  HostConfig?: {
    AutoRemove?: boolean;
    NetworkMode?: string;
    Ulimits?: Array<{ Name: string; Soft: number; Hard: number }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface ContainerCreateResult {
  Id: string;
  Warnings: string[] | null;
}

export type WaitCondition = 'not-running' | 'next-exit' | 'removed';

export interface WaitResult {
  StatusCode: number;
  Error?: { Message: string } | null;
}

export interface LogsOptions {
  stdout?: boolean;
  stderr?: boolean;
  follow?: boolean;
  /** Number of lines, or 'all'. */
  tail?: number | 'all';
  /** Unix seconds, or docker's `seconds.nanoseconds` text. */
  since?: number | string | undefined;
  /** Unix seconds, fractions allowed: lines stamped later are left out (a message stamped exactly then is kept). */
  until?: number | string | undefined;
  timestamps?: boolean;
  /** The extra attributes given to the log driver (`--log-opt labels=…`), before each line. */
  details?: boolean;
}

/** One decoded chunk of container output. stdin frames are reported as stdout. */
export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  data: Buffer;
  /**
   * Set by the frame demuxer (non-TTY output): true on the chunk that completes a multiplexed frame. A frame is one
   * write of the engine, e.g. one log message, so readers of timestamped logs learn where a message ends.
   */
  frameEnd?: boolean;
  /**
   * The data is the engine's multiplexed frames as they came, not decoded yet (`ContainerLogsOptions.rawFrames`):
   * `stream` means nothing then, and frames may be split across chunks.
   */
  multiplexed?: boolean;
}

export interface PullProgress {
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
}

export interface EngineEvent {
  Type: string;
  Action: string;
  Actor: { ID: string; Attributes?: Record<string, string> };
  scope?: string;
  time: number;
  timeNano: number;
  /** `timeNano`'s digits as the engine sent them: a JSON number keeps only about 16 of its 19. */
  exactTimeNano?: string;
}

export interface CommitOptions {
  repo?: string;
  tag?: string;
  comment?: string;
  author?: string;
  pause?: boolean;
  /** Dockerfile instructions, e.g. `CMD ["sh"]`. */
  changes?: string[];
}

/** Explicit registry credentials. Never logged, never put in a URL or an error text. */
export type RegistryCredential =
  | { username: string; password: string; serveraddress: string }
  | { identitytoken: string; serveraddress?: string };

/** Every call may be cancelled. */
export interface CallOptions {
  signal?: AbortSignal;
}

export type ListFilters = Record<string, string[]>;

// ---- option bags and results of EngineClient methods ----

export interface ListContainersOptions extends CallOptions {
  all?: boolean;
  filters?: ListFilters;
  limit?: number;
  size?: boolean;
}
export interface ListImagesOptions extends CallOptions {
  all?: boolean;
  filters?: ListFilters;
}
export interface CreateContainerOptions extends CallOptions {
  name?: string;
}
export interface StopOptions extends CallOptions {
  timeoutSeconds?: number | undefined;
  /** The `signal` query (API 1.42+): older engines ignore it and send the container's own stop signal. */
  stopSignal?: string | undefined;
}
export interface KillOptions extends CallOptions {
  /** e.g. 'SIGTERM'; the engine's default is SIGKILL. */
  killSignal?: string;
}
export interface RemoveContainerOptions extends CallOptions {
  force?: boolean;
  volumes?: boolean;
}
export interface WaitOptions extends CallOptions {
  condition?: WaitCondition;
}
export interface ContainerLogsOptions extends LogsOptions, CallOptions {
  /** The container's Config.Tty; looked up with inspect when absent. */
  tty?: boolean;
  /** See `JoinFramesOption`. */
  joinFrames?: boolean | undefined;
  /**
   * Without a TTY: the response's bytes as they come, frames and all, in chunks marked `multiplexed`, for a reader
   * that takes the frames itself (the log reader, with FramePayloads); then no chunk object is made per frame.
   */
  rawFrames?: boolean | undefined;
}

/** For a consumer that passes bytes on and needs no frame boundaries (a CLI writing to its stdout). */
export interface JoinFramesOption {
  /**
   * With a TTY, what the connection has already queued behind a chunk comes with it, so a stream of short writes
   * costs one write per network read instead of one per line. Without a TTY the frames are always joined: adjacent
   * frames of one stream in one network chunk come as one chunk, carrying the last frame's `frameEnd`.
   */
  joinFrames?: boolean | undefined;
}
export interface RemoveImageOptions extends CallOptions {
  force?: boolean;
  noPrune?: boolean;
}
export interface TagImageOptions extends CallOptions {
  repo: string;
  tag?: string;
}
export interface RegistryCallOptions extends CallOptions {
  auth?: RegistryCredential | undefined;
}
export interface ImportImageOptions extends CallOptions {
  repo: string;
  tag?: string;
  /** Dockerfile instructions applied to the image, e.g. `CMD ["/bin/sh"]`. */
  changes?: string[];
  message?: string;
}
export interface EventsOptions extends CallOptions {
  /** Unix seconds, or `SECONDS.NANOS` as a string (resume from the last timeNano). */
  since?: number | string;
  until?: number | string;
  filters?: ListFilters;
  /** Called once the engine has answered and the stream is open (before any event, which may be long in coming). */
  onOpen?: () => void;
}
export interface CreateExecOptions extends CallOptions {
  cmd: string[];
  tty?: boolean;
  attachStdin?: boolean;
  attachStdout?: boolean;
  attachStderr?: boolean;
  env?: string[];
  workingDir?: string;
  user?: string;
}
export interface AttachOptions extends CallOptions {
  /** Default false: Berth never feeds a run's stdin. */
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  /** Also replay the output logged so far. */
  logs?: boolean;
}
export interface StartExecOptions extends CallOptions {
  tty: boolean;
}
export interface ResizeOptions extends CallOptions {
  rows: number;
  cols: number;
}
export interface ExecInspect {
  ID: string;
  Running: boolean;
  ExitCode: number | null;
  ProcessConfig?: { tty?: boolean; entrypoint?: string; arguments?: string[] };
  ContainerID: string;
  Pid?: number;
  [key: string]: unknown;
}
export interface ImageDeleteItem {
  Untagged?: string;
  Deleted?: string;
}
export interface WaitHandle {
  /** Settles when the condition is met; rejects with EngineError if the wait fails or is cancelled. */
  result: Promise<WaitResult>;
}
