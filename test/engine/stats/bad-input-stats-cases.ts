// The bad-input rows of live stats and top (issue 15), asserted by test/engine/stats/*.test.ts (CLI and engine) and
// test/integration/suite/stats.test.ts (the Containers view); part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const STATS_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'stats-stopped-mid-stream',
    category: 'Live stats',
    action: 'Containers view / berth stats',
    input: 'a container stopped while its stats stream is open',
    kind: 'outcome',
    message: 'No message: the row shows its state (`Exited (137) …`) and no figures; `berth stats` shows `--` in each figure, as docker does',
  },
  {
    id: 'stats-no-memory',
    category: 'Live stats',
    action: 'stats',
    input: 'an engine whose cgroups report no memory figures',
    kind: 'outcome',
    message: 'No message: memory shows as `n/a / n/a` and `n/a` (the row: `12% · n/a`), never NaN; CPU and the other figures still show',
  },
  {
    id: 'stats-stalled',
    category: 'Live stats',
    action: 'Containers view / berth stats',
    input: 'a stats stream that sends nothing after its first sample',
    kind: 'outcome',
    message: 'No message: after 15 s without a sample the stream is dropped and opened again quietly (a debug line in the Berth log)',
  },
  {
    id: 'stats-unknown',
    category: 'Live stats',
    action: 'stats',
    input: 'no-such-container',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No such container: no-such-container. Check the container id or name; the container may have been removed',
  },
  {
    id: 'top-stopped',
    category: 'Live stats',
    action: 'top',
    input: '<a stopped container>',
    kind: 'error',
    errorKind: 'conflict',
    message: 'Container <id> is not running. Start the container first',
  },
];
