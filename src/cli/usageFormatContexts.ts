/**
 * What `--format` templates see for `stats`, `system df` and `compose ls`: docker's statsContext, its diskUsage
 * contexts and docker compose's stackView, with their field names, headers and default tables. Every field is text
 * worded as docker words it.
 */
import { statsCells, type DiskUsageLine, type StatsFigures } from '../engine';
import { goSize, shortId } from './format';
import { fieldContext } from './formatContexts';
import type { FormatTarget } from './formatOption';

export const STATS_TABLE = '{{.ID}}\t{{.Name}}\t{{.CPUPerc}}\t{{.MemUsage}}\t{{.MemPerc}}\t{{.NetIO}}\t{{.BlockIO}}\t{{.PIDs}}';

export interface StatsRow {
  readonly id: string;
  readonly name: string;
  /** `.Container`: the name or id as the user typed it, else the short id (docker's own choice, even with --no-trunc). */
  readonly container: string;
  readonly figures: StatsFigures | undefined;
}

/** `stats`: a row whose first sample has not come yet shows docker's `--`, as the default table does. */
export function statsFormatTarget(rows: readonly StatsRow[], noTrunc: boolean): FormatTarget {
  return {
    headers: {
      Container: 'CONTAINER', ID: 'CONTAINER ID', Name: 'NAME', CPUPerc: 'CPU %', MemUsage: 'MEM USAGE / LIMIT', MemPerc: 'MEM %',
      NetIO: 'NET I/O', BlockIO: 'BLOCK I/O', PIDs: 'PIDS',
    },
    items: rows.map((row) => {
      const [cpu, memory, memoryPercent, network, block, pids] = row.figures ? statsCells(row.figures) : ['--', '-- / --', '--', '--', '--', '--'];
      const cell = (value: string | undefined): (() => string) => () => value ?? '--';
      return fieldContext(
        '*container.statsContext',
        {
          BlockIO: cell(block),
          CPUPerc: cell(cpu),
          Container: () => row.container,
          ID: () => (noTrunc ? row.id : shortId(row.id)),
          MemPerc: cell(memoryPercent),
          MemUsage: cell(memory),
          Name: () => row.name || '--',
          NetIO: cell(network),
          PIDs: cell(pids),
        },
        undefined,
      );
    }),
  };
}

export const DISK_USAGE_TABLE = '{{.Type}}\t{{.TotalCount}}\t{{.Active}}\t{{.Size}}\t{{.Reclaimable}}';

/** `system df`: one item per kind (Images, Containers, Local Volumes, Build Cache), RECLAIMABLE with its share when there is a size. */
export function diskUsageFormatTarget(lines: readonly DiskUsageLine[]): FormatTarget {
  return {
    headers: { Type: 'TYPE', TotalCount: 'TOTAL', Active: 'ACTIVE', Size: 'SIZE', Reclaimable: 'RECLAIMABLE' },
    items: lines.map((line) =>
      fieldContext(
        '*formatter.diskUsageImagesContext',
        {
          Active: () => String(line.active),
          Reclaimable: () => (line.size > 0 ? `${goSize(line.reclaimable)} (${Math.trunc((line.reclaimable * 100) / line.size)}%)` : goSize(line.reclaimable)),
          Size: () => goSize(line.size),
          TotalCount: () => String(line.total),
          Type: () => line.type,
        },
        undefined,
      ),
    ),
  };
}

export const COMPOSE_LS_TABLE = '{{.Name}}\t{{.Status}}\t{{.ConfigFiles}}';

export interface ComposeLsRow {
  readonly name: string;
  readonly status: string;
  readonly configFiles: string;
}

/** `compose ls`: docker compose's stackView; its JSON keeps the struct's order (Name, Status, ConfigFiles), not sorted. */
export function composeLsFormatTarget(rows: readonly ComposeLsRow[]): FormatTarget {
  return {
    headers: { Name: 'NAME', Status: 'STATUS', ConfigFiles: 'CONFIG FILES' },
    items: rows.map((row) => ({
      ...fieldContext('compose.stackView', { Name: () => row.name, Status: () => row.status, ConfigFiles: () => row.configFiles }, undefined),
      toJson: () => composeLsJson(row),
      htmlEscapedJson: false,
    })),
  };
}

/** The object docker compose encodes for a project (json.Encoder with SetEscapeHTML(false)). */
export function composeLsJson(row: ComposeLsRow): Record<string, string> {
  return { Name: row.name, Status: row.status, ConfigFiles: row.configFiles };
}
