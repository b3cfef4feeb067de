/** The extension benchmark's report: markdown tables (medians, p10–p90 spreads, ratios) and the targets. */
import type { BundleSize } from './extension-bundle';
import type { ActivationSample, IdleSample, LogsSample } from './extension-protocol';
import { BERTH_REFRESH, type RefreshResult } from './extension-refresh';
import type { TreeHeapResult, TreeUpdateResult } from './extension-tree';
import type { TargetCheck } from './report';
import { targetsTable } from './report';
import type { Summary } from './stats';

export interface ActivationLaunch {
  readonly launch: number;
  readonly sample: ActivationSample;
  /** "Activation: N ms" of VS Code's Running Extensions editor. */
  readonly vscodeActivationMs: number | undefined;
}

export interface PeerModel {
  readonly containers: number;
  readonly berthEvent: string;
  readonly berthMs: number;
  readonly microsoftMs: number;
  readonly podmanDesktopMs: number;
}

export interface LogsReport {
  readonly sample: LogsSample;
  readonly notifications: readonly string[];
  readonly rendererRoundTrip: Summary | undefined;
  readonly rendererRoundTripMax: number | undefined;
}

export interface ExtensionBenchReport {
  readonly date: string;
  readonly machine: Record<string, string>;
  readonly bundle: { readonly sizes: readonly BundleSize[]; readonly buildMs: number };
  readonly activation: readonly ActivationLaunch[];
  readonly blackhole: ActivationLaunch | undefined;
  readonly treeUpdates: readonly TreeUpdateResult[];
  readonly treeHeap: readonly TreeHeapResult[];
  /** Engine timestamp → Berth's client holding the event, per container count. */
  readonly eventDelivery: ReadonlyArray<{ containers: number; summary: Summary }>;
  readonly peers: readonly PeerModel[];
  readonly creation: ReadonlyArray<{ containers: number; seconds: number }>;
  readonly refresh: readonly RefreshResult[];
  readonly logs: LogsReport | undefined;
  readonly logsFailure?: string | undefined;
  readonly idle: IdleSample | undefined;
  readonly targets: readonly TargetCheck[];
  readonly notes: readonly string[];
}

const ms = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? 'n/a' : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const spread = (summary: Summary): string => `${ms(summary.p10)}–${ms(summary.p90)}`;
const kb = (bytes: number): string => (bytes / 1024).toFixed(0);
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

function median(values: ReadonlyArray<number | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== undefined).sort((a, b) => a - b);
  if (known.length === 0) return undefined;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[middle] : ((known[middle - 1] as number) + (known[middle] as number)) / 2;
}

export function activationTable(launches: readonly ActivationLaunch[], blackhole: ActivationLaunch | undefined): string {
  const lines = [
    '| launch | engine | `Activated in` (log, ms) | `Views ready` after activation began (log, ms) | VS Code "Activation" (Running Extensions, ms) | `extension.activate()` as a caller sees it (ms) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const { launch, sample, vscodeActivationMs } of launches) {
    lines.push(`| ${launch} | private dockerd${sample.language === 'de' ? ', German UI (both German bundles loaded)' : ''} | ${ms(sample.activatedMs)} | ${ms(sample.viewsReadyMs)} | ${ms(vscodeActivationMs)} | ${ms(sample.activateCallMs)} |`);
  }
  lines.push(
    `| **median of ${launches.length}** | | **${ms(median(launches.map((l) => l.sample.activatedMs)))}** | **${ms(median(launches.map((l) => l.sample.viewsReadyMs)))}** | **${ms(median(launches.map((l) => l.vscodeActivationMs)))}** | **${ms(median(launches.map((l) => l.sample.activateCallMs)))}** |`,
  );
  if (blackhole) {
    const views = blackhole.sample.readyWithin ? 'ready (unexpected)' : 'not ready after 3 s (as expected)';
    lines.push(`| ${blackhole.launch} | an engine that accepts and never answers | ${ms(blackhole.sample.activatedMs)} | ${views} | ${ms(blackhole.vscodeActivationMs)} | ${ms(blackhole.sample.activateCallMs)} |`);
  }
  return lines.join('\n');
}

export function bundleTable(sizes: readonly BundleSize[]): string {
  return [
    '| file | loaded | size (KB) | gzip -9 (KB) |',
    '| --- | --- | ---: | ---: |',
    ...sizes.map((size) => `| ${size.file} | ${size.loaded} | ${kb(size.bytes)} | ${kb(size.gzipBytes)} |`),
  ].join('\n');
}

export function treeTable(rows: readonly TreeUpdateResult[]): string {
  return [
    '| engine | containers | event | event → row rendered, median (ms) | p10–p90 (ms) | after the 4 ms coalescing window, median (ms) | rows rendered | events |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.source} | ${row.containers.toLocaleString('en')} | ${row.event} | ${ms(row.total.median)} | ${spread(row.total)} | ${row.afterWindow ? ms(row.afterWindow.median) : 'n/a'} | ${row.rowsRendered.toLocaleString('en')} | ${row.total.samples} |`),
  ].join('\n');
}

export function heapTable(rows: readonly TreeHeapResult[]): string {
  return [
    '| engine | containers | heap after the first listing and full render (MiB) | per container (bytes) | heap growth over the events after a warm-up (KiB) | events |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.source} | ${row.containers.toLocaleString('en')} | ${mib(row.afterListing)} | ${(row.afterListing / row.containers).toFixed(0)} | ${(row.overEvents / 1024).toFixed(0)} | ${row.events} |`),
  ].join('\n');
}

export function peersTable(rows: readonly PeerModel[]): string {
  return [
    '| containers | Berth, measured (event → row, median ms) | Microsoft\'s extension, modelled: 500 ms debounce + a measured `docker container ls` + `docker image ls` (ms) | × Berth | Podman Desktop, modelled: 1.5 s debounce + a measured full API listing (ms) | × Berth |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.containers.toLocaleString('en')} | ${ms(row.berthMs)} (${row.berthEvent}) | ${ms(row.microsoftMs)} | ${(row.microsoftMs / row.berthMs).toFixed(0)}× | ${ms(row.podmanDesktopMs)} | ${(row.podmanDesktopMs / row.berthMs).toFixed(0)}× |`,
    ),
  ].join('\n');
}

export function refreshTable(rows: readonly RefreshResult[]): string {
  const berthMedian = (containers: number): number => rows.find((row) => row.containers === containers && row.peer === BERTH_REFRESH)?.summary.median ?? Number.NaN;
  return [
    '| containers | client | median (ms) | p10–p90 (ms) | × Berth | × Berth, paired by round | client CPU per refresh (ms) | samples |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.containers.toLocaleString('en')} | ${row.peer} | ${ms(row.summary.median)} | ${spread(row.summary)} | ${(row.summary.median / berthMedian(row.containers)).toFixed(2)}× | ${row.pairedRatio.toFixed(2)}× | ${ms(row.cpuMs)} | ${row.summary.samples} |`,
    ),
  ].join('\n');
}

export function logsTable(logs: LogsReport): string {
  const { sample } = logs;
  const rows: Array<[string, string]> = [
    ['container output', `${sample.lines.toLocaleString('en')} lines (\`seq 1 ${sample.lines}\`), ${mib(sample.logBytes)} MiB`],
    ['settings', `berth.logs.tail = 0 (all), berth.logs.maxLines = ${sample.maxLines.toLocaleString('en')} (default)`],
    ['the whole log read by Berth\'s engine client alone (the floor: engine + transport + demux)', `${ms(sample.engineReadMs)} ms`],
    ['`berth.openLogsInEditor` → document open and shown', `${ms(sample.openedMs)} ms`],
    ['→ document holds all its lines', `${ms(sample.contentMs)} ms (${sample.visible ? 'visible in an editor' : 'not visible'})`],
    ['document', `${sample.lineCount.toLocaleString('en')} lines; first: \`${sample.firstLine}\`; last: \`${sample.lastLine}\``],
    ['what the user is told', logs.notifications.length > 0 ? logs.notifications.map((text) => `"${text}"`).join('; ') : 'no notification was on screen'],
    ['extension host RSS before → after → after closing the editor', `${mib(sample.rssBefore)} → ${mib(sample.rssAfter)} → ${mib(sample.rssAfterClose)} MiB (peak ${mib(sample.rssPeak)} MiB)`],
    ['extension host JS heap before → after', `${mib(sample.heapBefore)} → ${mib(sample.heapAfter)} MiB`],
    ['command round trip extension host → workbench → host while loading', `median ${ms(sample.roundTrip.median)} ms, p10–p90 ${spread(sample.roundTrip)} ms, max ${ms(sample.roundTripMax)} ms (${sample.roundTrip.samples} trips)`],
    ['extension host event-loop delay while loading (a 50 ms sleep waking late)', `median ${ms(sample.loopDelay.median)} ms, p90 ${ms(sample.loopDelay.p90)} ms, max ${ms(sample.loopDelayMax)} ms`],
  ];
  if (logs.rendererRoundTrip) {
    rows.push(['workbench renderer answering (page.evaluate round trip) while loading', `median ${ms(logs.rendererRoundTrip.median)} ms, p90 ${ms(logs.rendererRoundTrip.p90)} ms, max ${ms(logs.rendererRoundTripMax)} ms`]);
  }
  return ['| measure | value |', '| --- | --- |', ...rows.map(([key, value]) => `| ${key} | ${value} |`)].join('\n');
}

export function idleTable(idle: IdleSample): string {
  const list = (sources: readonly string[]): string => (sources.length === 0 ? 'none' : sources.map((source) => `\`${source.replace(/\(\/.*\/dist\//, '(dist/').slice(0, 110)}\``).join('<br>'));
  return [
    '| period | timers scheduled by the bundle | timer callbacks of the bundle run | which |',
    '| --- | ---: | ---: | --- |',
    `| the ${(idle.aftermathMs / 1000).toFixed(0)} s after one container is created outside | ${idle.aftermath.scheduled} | ${idle.aftermath.fired} | ${list(idle.aftermath.sources)} |`,
    `| then ${(idle.windowMs / 1000).toFixed(0)} s idle (engine quiet ${(idle.quietBeforeMs / 1000).toFixed(0)} s before; ${idle.quiet ? 'no engine event in it' : '**engine was never quiet**'}) | ${idle.window.scheduled} | ${idle.window.fired} | ${list(idle.window.sources)} |`,
  ].join('\n');
}

export function renderExtensionMarkdown(report: ExtensionBenchReport): string {
  const machine = Object.entries(report.machine).map(([key, value]) => `- ${key}: ${value}`);
  const sections = [
    '# Berth extension benchmark results',
    '',
    `Measured ${report.date} by \`npm run bench:extension\` (bench/extension-run.ts). Lower is better.`,
    '',
    '## Machine',
    ...machine,
    '',
    '## Activation (real extension host: code-server, one fresh launch each)',
    activationTable(report.activation, report.blackhole),
    '',
    '## Bundle size (`node esbuild.js --production`)',
    bundleTable(report.bundle.sizes),
    '',
    '## Tree updates: engine event → changed row rendered',
    treeTable(report.treeUpdates),
    '',
    'Event delivery alone (the engine stamping an event → Berth\'s client holding it): ' +
      report.eventDelivery.map((row) => `${row.containers.toLocaleString('en')} containers: median ${ms(row.summary.median)} ms (p10–p90 ${spread(row.summary)})`).join('; ') +
      '.',
    '',
    'Creating the containers (never started, NetworkMode none): ' + report.creation.map((row) => `${row.containers.toLocaleString('en')} in ${row.seconds.toFixed(0)} s`).join(', ') + '.',
    '',
    '### Heap',
    heapTable(report.treeHeap),
    '',
    '### Against the peers',
    peersTable(report.peers),
    '',
    '## Full refresh: Berth\'s listing against Microsoft\'s extension spawning the docker CLI',
    refreshTable(report.refresh),
    '',
  ];
  if (report.logs) sections.push('## A 1,000,000-line logs document (real extension host)', logsTable(report.logs), '');
  else if (report.logsFailure) sections.push('## A 1,000,000-line logs document (real extension host)', `No figures: ${report.logsFailure}`, '');
  if (report.idle) sections.push('## Timers while idle (real extension host)', idleTable(report.idle), '');
  sections.push('## Targets', targetsTable(report.targets), '', '## Notes', ...report.notes.map((note) => `- ${note}`), '');
  return sections.join('\n');
}
