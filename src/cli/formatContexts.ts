/**
 * What `--format` templates see for each listing: docker's formatter contexts, with docker's field names, its
 * headers and its default tables. Every field is text worded as docker words it (`.Size` "0B (virtual 1.98MB)",
 * `.CreatedAt` Go's time format); `--format json` marshals the fields a listing has, in docker's key order.
 */
import { splitRepoTag } from '../common/imageName';
import type { ContainerSummary, ImageHistoryEntry, ImageSummary } from '../engine/connection';
import type { Volume } from '../engine/api';
import { createdAgo, ellipsis, familiarImage, goQuote, goSize, shortId } from './format';
import type { FormatTarget, PreparedFormat } from './formatOption';
import type { TemplateContext } from './template';
import type { TemplateValue } from './templateFunctions';

export const CONTAINER_TABLE = '{{.ID}}\t{{.Image}}\t{{.Command}}\t{{.RunningFor}}\t{{.Status}}\t{{.Ports}}\t{{.Names}}';
export const IMAGE_TABLE = '{{.Repository}}\t{{.Tag}}\t{{.ID}}\t{{.CreatedSince}}\t{{.Size}}';

type Fields = Readonly<Record<string, () => TemplateValue>>;

/** A context over fixed fields plus `.Label "k"`; `toJson` is what `{{json .}}` marshals (keys sorted, as Go's maps). */
export function fieldContext(typeName: string, fields: Fields, labels: Readonly<Record<string, string>> | undefined): TemplateContext & { toJson(): unknown } {
  return {
    typeName,
    has: (name) => Object.prototype.hasOwnProperty.call(fields, name) || (labels !== undefined && name === 'Label'),
    field: (name, args): TemplateValue => {
      if (name === 'Label') {
        if (args.length !== 1 || typeof args[0] !== 'string') throw new Error(`wrong number of args for Label: want 1 got ${args.length}`);
        return labels?.[args[0]] ?? '';
      }
      return (fields[name] as () => TemplateValue)();
    },
    toJson: () => Object.fromEntries(Object.keys(fields).sort().map((key) => [key, (fields[key] as () => TemplateValue)()])),
  };
}

/** Go's time.Time.String() for a unix time in the local zone: "2026-11-28 05:42:43 +0000 UTC". */
export function goTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const offsetMinutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const two = (value: number): string => String(value).padStart(2, '0');
  const stamp = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}${two(Math.abs(offsetMinutes) % 60)}`;
  const named = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const zone = offsetMinutes === 0 && /^(GMT|UTC)$/.test(named) ? 'UTC' : /^[A-Z]{3,5}$/.test(named) && !named.startsWith('GMT') ? named : offset.replace(/00$/, '');
  return `${stamp} ${offset} ${zone}`;
}

function sortedLabels(labels: Readonly<Record<string, string>> | null | undefined): string {
  // Go walks the map in random order; sorted is one of the orders docker may print, and a stable one.
  return Object.entries(labels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

type Port = ContainerSummary['Ports'][number];

/** docker's DisplayablePorts: consecutive ports grouped into ranges per protocol and address, then host mappings. */
export function displayablePorts(ports: readonly Port[]): string {
  const sorted = [...ports].sort((a, b) => a.PrivatePort - b.PrivatePort || (a.IP ?? '').localeCompare(b.IP ?? '') || (a.PublicPort ?? 0) - (b.PublicPort ?? 0) || a.Type.localeCompare(b.Type));
  const groups = new Map<string, { first: number; last: number }>();
  const result: string[] = [];
  const hostMappings: string[] = [];
  const formGroup = (key: string, first: number, last: number): string => {
    const parts = key.split('/');
    const [ip, type] = parts.length > 1 ? [parts[0] as string, parts[1] as string] : ['', parts[0] as string];
    let group = first === last ? String(first) : `${first}-${last}`;
    if (ip !== '') group = `${ip}:${group}->${group}`;
    return `${group}/${type}`;
  };
  for (const port of sorted) {
    let key = port.Type;
    if (port.IP) {
      if (port.PublicPort !== port.PrivatePort) {
        const host = port.IP.includes(':') ? `[${port.IP}]` : port.IP;
        hostMappings.push(`${host}:${port.PublicPort ?? 0}->${port.PrivatePort}/${port.Type}`);
        continue;
      }
      key = `${port.IP}/${port.Type}`;
    }
    const group = groups.get(key);
    if (!group) groups.set(key, { first: port.PrivatePort, last: port.PrivatePort });
    else if (port.PrivatePort === group.last + 1) group.last = port.PrivatePort;
    else {
      result.push(formGroup(key, group.first, group.last));
      groups.set(key, { first: port.PrivatePort, last: port.PrivatePort });
    }
  }
  for (const [key, group] of groups) result.push(formGroup(key, group.first, group.last));
  return [...result, ...hostMappings].join(', ');
}

type SizedContainer = Omit<ContainerSummary, 'Mounts'> & { SizeRw?: number; SizeRootFs?: number; Mounts?: Array<{ Name?: string; Source?: string; Driver?: string }>; NetworkSettings?: { Networks?: Record<string, unknown> } };

export function containerFormatTarget(containers: readonly ContainerSummary[], now: number, truncate: boolean): FormatTarget {
  return {
    headers: {
      ID: 'CONTAINER ID', Image: 'IMAGE', Command: 'COMMAND', CreatedAt: 'CREATED AT', RunningFor: 'CREATED', Ports: 'PORTS', State: 'STATE',
      Status: 'STATUS', Size: 'SIZE', Names: 'NAMES', Labels: 'LABELS', Mounts: 'MOUNTS', LocalVolumes: 'LOCAL VOLUMES', Networks: 'NETWORKS', Platform: 'PLATFORM',
    },
    items: containers.map((summary) => {
      const container = summary as unknown as SizedContainer;
      const names = container.Names.map((name) => name.replace(/^\//, ''));
      return fieldContext(
        '*formatter.ContainerContext',
        {
          Command: () => goQuote(truncate ? ellipsis(container.Command, 20) : container.Command),
          CreatedAt: () => goTime(container.Created),
          ID: () => (truncate ? shortId(container.Id) : container.Id),
          Image: () => familiarImage(container.Image, container.ImageID, truncate),
          Labels: () => sortedLabels(container.Labels),
          LocalVolumes: () => String((container.Mounts ?? []).filter((mount) => mount.Driver === 'local').length),
          Mounts: () => (container.Mounts ?? []).map((mount) => (truncate ? ellipsis(mount.Name || mount.Source || '', 15) : mount.Name || mount.Source || '')).join(','),
          Names: () => (truncate ? (names.find((name) => !name.includes('/')) ?? names.join(',')) : names.join(',')),
          Networks: () => Object.keys(container.NetworkSettings?.Networks ?? {}).sort().join(','),
          Platform: () => null,
          Ports: () => displayablePorts(container.Ports ?? []),
          RunningFor: () => createdAgo(container.Created, now),
          Size: () => {
            const writable = goSize(container.SizeRw ?? 0, 3);
            return (container.SizeRootFs ?? 0) > 0 ? `${writable} (virtual ${goSize(container.SizeRootFs ?? 0, 3)})` : writable;
          },
          State: () => container.State,
          Status: () => container.Status,
        },
        container.Labels ?? {},
      );
    }),
  };
}

/** docker asks the engine for sizes only when the template shows them (`.Size`, or all fields through `{{json .}}`), not for `--format json`. */
export function containersNeedSize(prepared: PreparedFormat): boolean {
  return prepared.kind !== 'json' && /\.Size\b|json\s+\.\s*\}\}/.test(prepared.text);
}

/** `images --digests`' default table. */
export const IMAGE_DIGEST_TABLE = '{{.Repository}}\t{{.Tag}}\t{{.Digest}}\t{{.ID}}\t{{.CreatedSince}}\t{{.Size}}';

/**
 * One row per tag, as docker's images table; an untagged image shows its digest's repository or `<none>`. When digests
 * are shown (`--digests`, or a template naming `.Digest`, as docker decides), a tag with several digests of its
 * repository gets a row per digest, and an untagged image a row per digest.
 */
export function imageFormatTarget(images: readonly ImageSummary[], now: number, showDigests = false): FormatTarget {
  const items: TemplateContext[] = [];
  for (const image of images) {
    const counts = image as ImageSummary & { SharedSize?: number; Containers?: number };
    for (const { repo, tag, digest } of imageRows(image, showDigests)) {
      items.push(
        fieldContext(
          '*formatter.imageContext',
          {
            Containers: () => (counts.Containers === undefined || counts.Containers === -1 ? 'N/A' : String(counts.Containers)),
            CreatedAt: () => goTime(image.Created),
            CreatedSince: () => createdAgo(image.Created, now),
            Digest: () => digest,
            ID: () => shortId(image.Id),
            Repository: () => repo,
            SharedSize: () => (counts.SharedSize === undefined || counts.SharedSize === -1 ? 'N/A' : goSize(counts.SharedSize, 3)),
            Size: () => goSize(image.Size, 3),
            Tag: () => tag,
            UniqueSize: () => (counts.SharedSize === undefined || counts.SharedSize === -1 ? 'N/A' : goSize(image.Size - counts.SharedSize, 3)),
            VirtualSize: () => goSize(image.Size, 4),
          },
          undefined,
        ),
      );
    }
  }
  return { headers: IMAGE_HEADERS, items };
}

function imageRows(image: ImageSummary, showDigests: boolean): Array<{ repo: string; tag: string; digest: string }> {
  const digestsByRepo = new Map<string, string[]>();
  for (const reference of image.RepoDigests ?? []) {
    const at = reference.lastIndexOf('@');
    const repo = reference.slice(0, at);
    if (at <= 0 || repo === '<none>') continue;
    digestsByRepo.set(repo, [...(digestsByRepo.get(repo) ?? []), reference.slice(at + 1)]);
  }
  const rows: Array<{ repo: string; tag: string; digest: string }> = [];
  for (const repoTag of (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>')) {
    const { repo, tag } = splitRepoTag(repoTag);
    const digests = showDigests ? (digestsByRepo.get(repo) ?? []) : [];
    if (digests.length === 0) rows.push({ repo, tag: tag ?? '<none>', digest: '<none>' });
    for (const digest of digests) rows.push({ repo, tag: tag ?? '<none>', digest });
  }
  const tagged = new Set(rows.map((row) => row.repo));
  for (const [repo, digests] of digestsByRepo) {
    if (tagged.has(repo)) continue;
    if (showDigests) for (const digest of digests) rows.push({ repo, tag: '<none>', digest });
    else rows.push({ repo, tag: '<none>', digest: '<none>' });
  }
  if (rows.length === 0) rows.push({ repo: '<none>', tag: '<none>', digest: '<none>' });
  return rows;
}

/** docker shows digests with `--digests` or when the template names `.Digest`. */
export function imagesNeedDigests(prepared: PreparedFormat | undefined, digests: boolean): boolean {
  return digests || (prepared !== undefined && prepared.text.includes('{{.Digest}}'));
}

const IMAGE_HEADERS = {
  ID: 'IMAGE ID', Repository: 'REPOSITORY', Tag: 'TAG', Digest: 'DIGEST', CreatedSince: 'CREATED', CreatedAt: 'CREATED AT', Size: 'SIZE',
  Containers: 'CONTAINERS', VirtualSize: 'SIZE', SharedSize: 'SHARED SIZE', UniqueSize: 'UNIQUE SIZE',
};

export const VOLUME_TABLE = '{{.Driver}}\t{{.Name}}';

/** `volume ls`: docker's volumeContext; what the list does not carry (size, links, cluster fields) is "N/A", as with docker. */
export function volumeFormatTarget(volumes: readonly Volume[]): FormatTarget {
  return {
    headers: {
      Name: 'VOLUME NAME', Driver: 'DRIVER', Scope: 'SCOPE', Mountpoint: 'MOUNTPOINT', Labels: 'LABELS', Links: 'LINKS', Size: 'SIZE',
      Group: 'GROUP', Availability: 'AVAILABILITY', Status: 'STATUS',
    },
    items: volumes.map((volume) => {
      const usage = volume.UsageData;
      return fieldContext(
        '*formatter.volumeContext',
        {
          Availability: () => 'N/A',
          Driver: () => volume.Driver,
          Group: () => 'N/A',
          Labels: () => sortedLabels(volume.Labels),
          Links: () => (usage?.RefCount === undefined || usage.RefCount === -1 ? 'N/A' : String(usage.RefCount)),
          Mountpoint: () => volume.Mountpoint,
          Name: () => volume.Name,
          Scope: () => volume.Scope,
          Size: () => (usage?.Size === undefined || usage.Size === -1 ? 'N/A' : goSize(usage.Size, 3)),
          Status: () => 'N/A',
        },
        volume.Labels ?? {},
      );
    }),
  };
}

/**
 * `volume inspect -f`: the engine's volume as docker's typed volume.Volume shows it to a template: absent maps are
 * empty (`map[]`), absent usage data is `<nil>`, an unknown field an error; `{{json .}}` is the engine's object.
 */
export function volumeInspectContext(volume: unknown): TemplateContext & { toJson(): unknown } {
  const raw = (volume ?? {}) as Record<string, TemplateValue>;
  const defaults: Record<string, TemplateValue> = { CreatedAt: '', Driver: '', Labels: {}, Mountpoint: '', Name: '', Options: {}, Scope: '', Status: {}, UsageData: null, ClusterVolume: null };
  return {
    typeName: 'volume.Volume',
    has: (name) => Object.prototype.hasOwnProperty.call(defaults, name),
    field: (name) => raw[name] ?? defaults[name],
    toJson: () => raw,
    htmlEscapedJson: false,
  } as TemplateContext & { toJson(): unknown };
}

export const HISTORY_TABLE = '{{.ID}}\t{{.CreatedSince}}\t{{.CreatedBy}}\t{{.Size}}\t{{.Comment}}';
/** docker history -H=false: the time as RFC 3339 instead of "… ago". */
export const HISTORY_TABLE_NOT_HUMAN = '{{.ID}}\t{{.CreatedAt}}\t{{.CreatedBy}}\t{{.Size}}\t{{.Comment}}';

/** `history`: docker's historyContext. `truncate` cuts ids to 12 and CREATED BY to 45 columns; `human` words times and sizes. */
export function historyFormatTarget(entries: readonly ImageHistoryEntry[], now: number, truncate: boolean, human: boolean): FormatTarget {
  return {
    headers: { ID: 'IMAGE', CreatedSince: 'CREATED', CreatedAt: 'CREATED AT', CreatedBy: 'CREATED BY', Size: 'SIZE', Comment: 'COMMENT' },
    items: entries.map((entry) => {
      const createdBy = entry.CreatedBy.replace(/\t/g, ' ');
      return fieldContext(
        '*formatter.historyContext',
        {
          Comment: () => entry.Comment,
          CreatedAt: () => rfc3339Local(entry.Created),
          CreatedBy: () => (truncate ? ellipsis(createdBy, 45) : createdBy),
          CreatedSince: () => (human ? createdAgo(entry.Created, now) : rfc3339Local(entry.Created)),
          ID: () => (truncate ? historyShortId(entry.Id) : entry.Id),
          Size: () => (human ? goSize(entry.Size, 3) : String(entry.Size)),
        },
        undefined,
      );
    }),
  };
}

/** stringid.TruncateID: what follows the algorithm, cut to 12; `<missing>` stays as it is. */
function historyShortId(id: string): string {
  const colon = id.indexOf(':');
  return (colon === -1 ? id : id.slice(colon + 1)).slice(0, 12);
}

/** Go's time.RFC3339 for a unix time in the local zone: "2026-11-28T08:34:40Z", or "…+01:00". */
export function rfc3339Local(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const offsetMinutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
}
