/**
 * A stats sample turned into figures, computed the way the docker CLI computes them (cli/command/container/
 * stats_helpers.go), and worded the way it prints them. A figure the engine did not send is `undefined` and shows as
 * "n/a": never NaN, never a made-up zero. Plain functions, no I/O.
 */
import type { CpuStats, StatsSample } from '../api';

export interface StatsFigures {
  /** False for the zeroed samples a stopped container's stream goes on sending (`read` is Go's zero time). */
  readonly running: boolean;
  /** Unix ms of the sample, when the engine said. */
  readonly readAt: number | undefined;
  readonly cpuPercent: number | undefined;
  /** Usage without the inactive page cache, as docker shows it. */
  readonly memoryUsage: number | undefined;
  readonly memoryLimit: number | undefined;
  readonly memoryPercent: number | undefined;
  /** Summed over the container's networks. */
  readonly networkRx: number | undefined;
  readonly networkTx: number | undefined;
  readonly blockRead: number | undefined;
  readonly blockWrite: number | undefined;
  readonly pids: number | undefined;
}

const GO_ZERO_TIME = /^0001-01-01T/;
const NOT_AVAILABLE = 'n/a';

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** docker's calculateCPUPercentUnix: (cpu delta / system delta) × online CPUs × 100, and 0 when either delta is not positive. */
export function cpuPercent(current: CpuStats | undefined, previous: CpuStats | undefined): number | undefined {
  const total = finite(current?.cpu_usage?.total_usage);
  const system = finite(current?.system_cpu_usage);
  if (total === undefined || system === undefined) return undefined;
  const cpuDelta = total - (finite(previous?.cpu_usage?.total_usage) ?? 0);
  const systemDelta = system - (finite(previous?.system_cpu_usage) ?? 0);
  let online = finite(current?.online_cpus) ?? 0;
  if (online === 0) online = current?.cpu_usage?.percpu_usage?.length ?? 0;
  return systemDelta > 0 && cpuDelta > 0 ? (cpuDelta / systemDelta) * online * 100 : 0;
}

/** docker's calculateMemUsageUnixNoCache: usage minus `total_inactive_file` (cgroup v1) or `inactive_file` (v2). */
export function memoryUsage(memory: StatsSample['memory_stats']): number | undefined {
  const usage = finite(memory?.usage);
  if (usage === undefined) return undefined;
  const stats = memory?.stats ?? {};
  const v1 = finite(stats['total_inactive_file']);
  if (v1 !== undefined && v1 < usage) return usage - v1;
  const v2 = finite(stats['inactive_file']);
  if (v2 !== undefined && v2 < usage) return usage - v2;
  return usage;
}

export function statsFigures(sample: StatsSample): StatsFigures {
  const running = typeof sample.read === 'string' && !GO_ZERO_TIME.test(sample.read);
  const usage = memoryUsage(sample.memory_stats);
  const limit = finite(sample.memory_stats?.limit) || undefined;
  // No networks (NetworkMode none) is no network I/O: docker prints 0B there too.
  const networks = Object.values(sample.networks ?? {});
  const blkio = sample.blkio_stats?.io_service_bytes_recursive;
  const readAt = running ? Date.parse(sample.read) : undefined;
  return {
    running,
    readAt: Number.isFinite(readAt) ? readAt : undefined,
    cpuPercent: running ? cpuPercent(sample.cpu_stats, sample.precpu_stats) : undefined,
    memoryUsage: running ? usage : undefined,
    memoryLimit: running ? limit : undefined,
    memoryPercent: running && usage !== undefined && limit !== undefined ? (usage / limit) * 100 : undefined,
    networkRx: running ? networks.reduce((sum, each) => sum + (finite(each.rx_bytes) ?? 0), 0) : undefined,
    networkTx: running ? networks.reduce((sum, each) => sum + (finite(each.tx_bytes) ?? 0), 0) : undefined,
    blockRead: running && blkio ? blockBytes(blkio, 'r') : running ? 0 : undefined,
    blockWrite: running && blkio ? blockBytes(blkio, 'w') : running ? 0 : undefined,
    pids: running ? finite(sample.pids_stats?.current) : undefined,
  };
}

/** docker sums `io_service_bytes_recursive` by the first letter of `op` (Read/read, Write/write). */
function blockBytes(entries: NonNullable<NonNullable<StatsSample['blkio_stats']>['io_service_bytes_recursive']>, first: 'r' | 'w'): number {
  let sum = 0;
  for (const entry of entries) if (entry.op?.[0]?.toLowerCase() === first) sum += finite(entry.value) ?? 0;
  return sum;
}

// ---- wording -------------------------------------------------------------------------------------------------------

/** Go's `%.<precision>g`: at most `precision` significant digits, no trailing zeros. */
export function goG(value: number, precision: number): string {
  if (value === 0) return '0';
  const text = value.toPrecision(precision);
  const [mantissa = text, exponent] = text.split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  if (exponent === undefined) return trimmed;
  const power = Number(exponent);
  return `${trimmed}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

function scaled(bytes: number, base: number, units: readonly string[], precision: number, space: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  return `${goG(value, precision)}${space}${units[unit] ?? ''}`;
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'];
const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** go-units' BytesSize (`20.44MiB`), as docker prints memory. */
export function binarySize(bytes: number | undefined): string {
  return bytes === undefined ? NOT_AVAILABLE : scaled(bytes, 1024, BINARY_UNITS, 4, '');
}

/** go-units' HumanSizeWithPrecision(·, 3) (`1.23kB`), as docker prints network and block I/O. */
export function decimalSize(bytes: number | undefined): string {
  return bytes === undefined ? NOT_AVAILABLE : scaled(bytes, 1000, DECIMAL_UNITS, 3, '');
}

function percent(value: number | undefined): string {
  return value === undefined ? NOT_AVAILABLE : `${value.toFixed(2)}%`;
}

/** One `docker stats` row's cells after CONTAINER ID and NAME; a stopped container gets docker's `--`. */
export function statsCells(figures: StatsFigures): string[] {
  if (!figures.running) return ['--', '-- / --', '--', '--', '--', '--'];
  return [
    percent(figures.cpuPercent),
    `${binarySize(figures.memoryUsage)} / ${binarySize(figures.memoryLimit)}`,
    percent(figures.memoryPercent),
    `${decimalSize(figures.networkRx)} / ${decimalSize(figures.networkTx)}`,
    `${decimalSize(figures.blockRead)} / ${decimalSize(figures.blockWrite)}`,
    figures.pids === undefined ? NOT_AVAILABLE : String(figures.pids),
  ];
}

export const STATS_HEADERS: readonly string[] = ['CONTAINER ID', 'NAME', 'CPU %', 'MEM USAGE / LIMIT', 'MEM %', 'NET I/O', 'BLOCK I/O', 'PIDS'];

/**
 * The tree row's short form: `12% · 143.2 MiB` (one decimal below 10 %), with n/a for what is missing. Memory is
 * docker's `%.4g`: a scaled value stays below 1024, so four digits always hold its whole part and no exponent shows
 * (three digits made 1010 KiB read "1.01e+03 KiB").
 */
export function compactFigures(figures: StatsFigures): string {
  const cpu = figures.cpuPercent;
  const cpuText = cpu === undefined ? NOT_AVAILABLE : `${cpu < 10 ? cpu.toFixed(1) : cpu.toFixed(0)}%`;
  const memory = figures.memoryUsage === undefined ? NOT_AVAILABLE : scaled(figures.memoryUsage, 1024, BINARY_UNITS, 4, ' ');
  return `${cpuText} · ${memory}`;
}
