/**
 * The Engine API's stats and top answers, as dockerd 20.10+ and Podman's compat layer send them. Every field is
 * optional: cgroup setups leave some out (rootless Podman has no memory `stats`, cgroup v1 and v2 name the page cache
 * differently), and a stopped container's stream goes on with zeroed samples whose `read` is Go's zero time.
 */

export interface CpuStats {
  readonly cpu_usage?: { readonly total_usage?: number; readonly percpu_usage?: readonly number[] | null };
  readonly system_cpu_usage?: number;
  readonly online_cpus?: number;
}

export interface BlkioEntry {
  readonly op?: string;
  readonly value?: number;
}

export interface NetworkStats {
  readonly rx_bytes?: number;
  readonly tx_bytes?: number;
}

/** One sample of `GET /containers/{id}/stats` (a line of the stream, or the whole `stream=false` answer). */
export interface StatsSample {
  readonly read?: string;
  readonly preread?: string;
  readonly name?: string;
  readonly id?: string;
  /** Podman spells the id `Id`. */
  readonly Id?: string;
  readonly pids_stats?: { readonly current?: number };
  readonly cpu_stats?: CpuStats;
  readonly precpu_stats?: CpuStats;
  readonly memory_stats?: {
    readonly usage?: number;
    readonly limit?: number;
    readonly stats?: Readonly<Record<string, number>> | null;
  };
  readonly networks?: Readonly<Record<string, NetworkStats>> | null;
  readonly blkio_stats?: { readonly io_service_bytes_recursive?: readonly BlkioEntry[] | null };
}

/** `GET /containers/{id}/top`: ps's column titles and one row of strings per process. */
export interface TopResult {
  readonly Titles: string[];
  readonly Processes: string[][] | null;
}

export interface StatsOptions {
  readonly signal?: AbortSignal | undefined;
}

export interface TopOptions extends StatsOptions {
  /** ps options (dockerd only; Podman takes descriptors instead). The engine's default is `-ef`. */
  readonly psArgs?: string | undefined;
}
