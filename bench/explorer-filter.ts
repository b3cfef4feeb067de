/**
 * The explorer's filter at 5,000 containers, in plain Node with the real tree and matching code (src/containers/tree.ts,
 * src/views/rowFilter.ts, src/views/presentation.ts), measured interleaved in one run:
 *   - a keystroke: the Containers tree rebuilt with the new filter text, and the rows it shows handed out as VS Code
 *     asks for them (getChildren of the root, an item per row from the per-record cache the view keeps), against the
 *     same view's unfiltered refresh of all 5,000 rows (what a full refresh of the view costs, the floor of any change);
 *   - events while filtered: a burst of 500 container updates applied to a filtered tree, against the same burst on an
 *     unfiltered one (the tree alone). The counts of the filtered tree follow each update; nothing is recounted.
 *   - one event end to end: the in-memory engine's start or die event through the real EngineModel (refetch, records)
 *     to the tree's refresh plan and the changed row drawn, on a filtered and on an unfiltered Containers tree.
 * Run: node --import tsx bench/explorer-filter.ts
 */
import { ContainerTree } from '../src/containers/tree';
import { EngineModel } from '../src/model/engineModel';
import type { Scheduler } from '../src/model/batcher';
import { containerId, MemorySource } from './extension-memory-source';
import type { ModelChange } from '../src/model/modelChange';
import { toContainerRecord, type ContainerRecord } from '../src/model/records';
import { presentContainer, type ItemPresentation } from '../src/views/presentation';
import { textFilter } from '../src/views/rowFilter';
import { measureInterleaved, pairedRatio } from './measure';
import { summarize } from './stats';

const CONTAINERS = 5_000;
const BURST = 500;
/** What a user types, one keystroke at a time: each step narrows the rows. */
const TYPED = ['s', 'sh', 'sho', 'shop', 'shop-', 'shop-1', 'shop-12'];

function record(index: number, state: 'running' | 'exited'): ContainerRecord {
  const project = index % 10 === 0 ? 'shop' : `app${index % 50}`;
  return toContainerRecord({
    Id: index.toString(16).padStart(64, '0'),
    Names: [`/${project}-${index}`],
    Image: `registry.local/${project}/web:${index % 7}`,
    ImageID: `sha256:${(index % 40).toString(16).padStart(64, 'a')}`,
    Command: 'sleep 600',
    Created: 1_700_000_000 + index,
    Ports: index % 3 === 0 ? [{ IP: '127.0.0.1', PrivatePort: 80, PublicPort: 10_000 + index, Type: 'tcp' }] : [],
    Labels: { 'com.docker.compose.project': project, 'com.docker.compose.service': `svc${index % 5}`, team: index % 2 === 0 ? 'payments' : 'search' },
    State: state,
    Status: state === 'running' ? 'Up 5 minutes' : 'Exited (0) 5 minutes ago',
  });
}

const records = Array.from({ length: CONTAINERS }, (_, index) => record(index, 'running'));
const now = Date.now();
/** The view's item cache: one presentation per record object, made once. */
const items = new WeakMap<ContainerRecord, ItemPresentation>();

/** What VS Code asks of the view after a refresh of the root: its rows, and an item for each. */
function render(tree: ContainerTree): number {
  let drawn = 0;
  for (const node of tree.children()) {
    if (node.kind !== 'container') continue;
    let item = items.get(node.record);
    if (!item) {
      item = presentContainer(node.record, now);
      items.set(node.record, item);
    }
    drawn += item.label.length > 0 ? 1 : 0;
  }
  return drawn;
}

const options = { showAll: true, groupBy: 'none' as const };
const keystrokeTree = new ContainerTree(options);
const refreshTree = new ContainerTree(options);
let typed = 0;

/** Updates that flip each container's state, as a burst of die/start events would. */
function burst(tree: ContainerTree, records: ContainerRecord[], round: number): void {
  const updated = [];
  for (let index = 0; index < BURST; index++) {
    const at = (round * BURST + index) % CONTAINERS;
    const previous = records[at] as ContainerRecord;
    const current = record(at, previous.state === 'running' ? 'exited' : 'running');
    records[at] = current;
    updated.push({ previous, current });
  }
  const change: ModelChange = { full: false, containers: { added: [], updated, removed: [] }, images: { added: [], updated: [], removed: [], usageChanged: [] } };
  tree.apply(change, () => records);
}

const filteredTree = new ContainerTree({ ...options, filter: textFilter('shop') });
const unfilteredTree = new ContainerTree(options);
/** Each tree's own records, which its bursts replace. */
const filteredRecords = [...records];
const unfilteredRecords = [...records];
filteredTree.reset(filteredRecords);
unfilteredTree.reset(unfilteredRecords);
let filteredRound = 0;
let unfilteredRound = 0;

/** Runs the model's coalesced work at once: the 4 ms window would be most of what is timed, the same for both. */
const immediate: Scheduler = (run) => {
  const handle = setImmediate(run);
  return { dispose: () => clearImmediate(handle) };
};

interface EventRig {
  readonly source: MemorySource;
  readonly model: EngineModel;
  readonly tree: ContainerTree;
  cycle: number;
  /** The row the running event waits for: its container's id and state once the tree holds it. */
  waiting: { readonly id: string; readonly state: string; readonly resolve: () => void } | undefined;
}

async function eventRig(filtered: boolean): Promise<EventRig> {
  const source = new MemorySource(CONTAINERS);
  const model = new EngineModel(source, { scheduler: immediate });
  // MemorySource names its containers bench-N: "bench-1" matches 1,111 of the 5,000.
  const tree = new ContainerTree({ ...options, filter: filtered ? textFilter('bench-1') : undefined });
  const rig: EventRig = { source, model, tree, cycle: 0, waiting: undefined };
  model.onDidChange((change) => {
    const plan = tree.apply(change, () => model.containers());
    if (plan.all) render(tree);
    else for (const node of plan.nodes) if (node.kind === 'container' && !items.has(node.record)) items.set(node.record, presentContainer(node.record, now));
    const waiting = rig.waiting;
    if (waiting && tree.node(waiting.id)?.record.state === waiting.state) {
      rig.waiting = undefined;
      waiting.resolve();
    }
  });
  model.start();
  await model.whenConnected();
  tree.reset(model.containers());
  return rig;
}

/** One event: the next container started, or the one started last stopped; resolves once the tree holds its new state. */
async function oneEvent(rig: EventRig): Promise<void> {
  const id = containerId(1 + ((Math.floor(rig.cycle / 2) * 7) % CONTAINERS));
  const starting = rig.cycle % 2 === 0;
  rig.cycle++;
  const shown = new Promise<void>((resolve) => {
    rig.waiting = { id, state: starting ? 'running' : 'exited', resolve };
  });
  rig.source.change(id, starting ? 'start' : 'die');
  await shown;
  await rig.model.whenIdle();
}

async function main(): Promise<void> {
  const filteredRig = await eventRig(true);
  const unfilteredRig = await eventRig(false);
  const FILTERED_EVENT = 'one event, model to row, while filtered ("bench-1")';
  const UNFILTERED_EVENT = 'one event, model to row, unfiltered';
  const KEYSTROKE = 'a keystroke: the tree rebuilt with the filter, its rows drawn';
  const REFRESH = 'the view refreshed unfiltered: 5,000 rows drawn (floor)';
  const FILTERED_EVENTS = `${BURST} updates while filtered ("shop")`;
  const UNFILTERED_EVENTS = `${BURST} updates unfiltered`;
  const measured = await measureInterleaved(
    [
      {
        name: KEYSTROKE,
        samples: 140,
        warmup: 7,
        run: () => {
          keystrokeTree.reset(records, { ...options, filter: textFilter(TYPED[typed++ % TYPED.length] ?? '') });
          return Promise.resolve(render(keystrokeTree));
        },
      },
      {
        name: REFRESH,
        samples: 140,
        warmup: 7,
        run: () => {
          refreshTree.reset(records, options);
          return Promise.resolve(render(refreshTree));
        },
      },
      { name: FILTERED_EVENTS, samples: 100, warmup: 5, run: () => Promise.resolve(burst(filteredTree, filteredRecords, filteredRound++)) },
      { name: UNFILTERED_EVENTS, samples: 100, warmup: 5, run: () => Promise.resolve(burst(unfilteredTree, unfilteredRecords, unfilteredRound++)) },
      { name: FILTERED_EVENT, samples: 1000, warmup: 20, run: () => oneEvent(filteredRig) },
      { name: UNFILTERED_EVENT, samples: 1000, warmup: 20, run: () => oneEvent(unfilteredRig) },
    ],
    10,
  );
  const line = (name: string, floor: string): string => {
    const measurement = measured.get(name);
    const base = measured.get(floor);
    if (!measurement || !base) return '';
    const summary = summarize(measurement.samples);
    const ratio = summary.median / summarize(base.samples).median;
    return `| ${name} | ${summary.median.toFixed(2)} | ${summary.p10.toFixed(2)}–${summary.p90.toFixed(2)} | ${ratio.toFixed(2)}× | ${pairedRatio(measurement, base).toFixed(2)}× | ${summary.samples} |`;
  };
  console.log('| case | median (ms) | p10–p90 (ms) | × its floor | × floor, paired by round | samples |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  console.log(line(REFRESH, REFRESH));
  console.log(line(KEYSTROKE, REFRESH));
  console.log(line(UNFILTERED_EVENTS, UNFILTERED_EVENTS));
  console.log(line(FILTERED_EVENTS, UNFILTERED_EVENTS));
  console.log(line(UNFILTERED_EVENT, UNFILTERED_EVENT));
  console.log(line(FILTERED_EVENT, UNFILTERED_EVENT));
  console.log(`filtered trees: ${JSON.stringify(filteredTree.counts())}, ${JSON.stringify(filteredRig.tree.counts())}`);
  filteredRig.model.dispose();
  unfilteredRig.model.dispose();
}

void main();
