/**
 * The workbench half of `npm run bench:extension` (issue 18): idle CPU against an extension host with no extension,
 * and open/change latency against VS Code's own floor, in one run on one scratch engine. Writes
 * bench/extension-ui-results.md and .json. `BERTH_BENCH_ONLY=ui npm run bench:extension` runs this part alone.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchEngine } from './extension-engine';
import { FLOOR_CONTAINER_TITLE, FLOOR_FILTER_TITLE, FLOOR_VIEW_TITLE, writeFloorExtensions, type FloorShape } from './extension-floor';
import { baselineIdle, berthLaunch, buildProfileHost, countingProxy, floorLaunch, latencyRow, STEADY_VISIBLE_CASE, type BerthRun, type IdleCpu, type UiLatency } from './extension-ui';
import { BERTH_FILTER, filterBenchName, measureFilterKeystrokes, TYPED } from './extension-ui-filter';
import { createIdleContainers, fixtureLabels, removeRunContainers } from './fixtures';
import type { TargetCheck } from './report';
import { targetsTable } from './report';

/**
 * `BERTH_BENCH_UI_QUICK=1`: a short rehearsal of the whole sequence (figures not for the README).
 * `BERTH_BENCH_UI_SIZES=5000` (comma-separated): other container counts. `BERTH_BENCH_PROFILE_OPEN=1`: every Berth
 * launch logs a V8 profile of the extension host from its start to the first row of the opened view.
 */
const QUICK = process.env.BERTH_BENCH_UI_QUICK === '1';
const SIZES = process.env.BERTH_BENCH_UI_SIZES ? process.env.BERTH_BENCH_UI_SIZES.split(',').map(Number) : QUICK ? [1000] : [1000, 5000];
/** `BERTH_BENCH_UI_LAUNCHES` and `BERTH_BENCH_UI_CHANGES`: more samples than the defaults. */
const LAUNCHES = Number(process.env.BERTH_BENCH_UI_LAUNCHES ?? (QUICK ? 1 : 2));
const CHANGES_PER_LAUNCH = Number(process.env.BERTH_BENCH_UI_CHANGES ?? (QUICK ? 3 : 6));
/**
 * `BERTH_BENCH_UI_SHAPED_FLOOR=berth` (or `collapsed`, `ids`, `berth-menus`, `berth-view`; see FloorShape): in Berth's place, the floor again with
 * rows of that shape, in the same alternation, with no containers and no idle windows. Its figures land in the
 * "Berth" columns: how much of Berth's ratio is VS Code's cost of rows shaped like Berth's.
 */
const SHAPED_FLOOR = (process.env.BERTH_BENCH_UI_SHAPED_FLOOR || undefined) as FloorShape | undefined;
/** `BERTH_BENCH_UI_LATENCY_ONLY=1`: opens and changes only, no idle windows (each one costs minutes). */
const LATENCY_ONLY = process.env.BERTH_BENCH_UI_LATENCY_ONLY === '1';
/** The floor's filter: an input box whose every keystroke refreshes the floor's view with the items containing the text. */
const FLOOR_FILTER = { command: `${FLOOR_CONTAINER_TITLE}: ${FLOOR_FILTER_TITLE}`, pane: FLOOR_VIEW_TITLE };
/**
 * `BERTH_BENCH_UI_KEYSTROKE_ROUNDS`: how many times each Berth launch types the filter's text (one keystroke a
 * character, bench/extension-ui-filter.ts); 0 leaves the filter out.
 */
const KEYSTROKE_ROUNDS = Number(process.env.BERTH_BENCH_UI_KEYSTROKE_ROUNDS ?? (QUICK ? 1 : 2));
/** The results' file name in bench/ (.md and .json): a latency-only run keeps the last full run's idle figures. */
export const UI_RESULTS = LATENCY_ONLY ? 'extension-ui-latency-results' : 'extension-ui-results';
/** Past the engine client's 30 s keep-alive, so sockets closing is not in the window. */
const SETTLE_MS = QUICK ? 5000 : 35_000;
const WINDOW_MS = QUICK ? 15_000 : 60_000;
/**
 * Of the 1,000, this many are started (and exit at once) before the idle windows: their "Exited (0) N seconds ago" ages
 * every second. The floor's idle window has as many rows aging the same way (`age N`, bench/extension-floor.ts).
 */
const AGING_ROWS = Number(process.env.BERTH_BENCH_UI_AGING_ROWS ?? 20);
/** Berth's idle windows start after the view was opened and changes timed: about this much later after start-up. */
const BASELINE_EXTRA_SETTLE_MS = QUICK ? 5000 : 20_000;

export interface UiReport {
  readonly date: string;
  /** Engine changes whose row never showed in Berth's view. */
  readonly missing: string[];
  readonly idle: IdleCpu[];
  readonly latency: UiLatency[];
  readonly targets: TargetCheck[];
  /** The commit the `Berth before` rows were built from. */
  readonly before?: string | undefined;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}

function ratio(berth: number, floor: number): string {
  return `${(berth / floor).toFixed(2)}×`;
}

export function uiMarkdown(report: UiReport): string {
  const baseline = report.idle.find((row) => row.engineRequests === undefined)?.cpuMsPerMinute ?? Number.NaN;
  const lines = report.idle.length === 0 ? [] : [
    // The idle windows run in the first size's launches (BERTH_BENCH_UI_SIZES may start at 5,000).
    `## Idle, ${(SIZES[0] ?? 1000).toLocaleString('en')} containers, nothing changing (real workbench)`,
    '| extension host | CPU ms per minute | above the baseline | in Berth\'s code (V8 profile, inclusive) | engine requests in the window | where the sampled time went (ms per minute, top scripts) | by thread (ms per minute) |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...report.idle.map((row) => {
      const above = row === report.idle.find((candidate) => candidate.engineRequests === undefined) ? '—' : signed(row.cpuMsPerMinute - baseline);
      const scripts = Object.entries(row.profile?.selfByScript ?? {})
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([script, ms]) => `${script} ${ms.toFixed(0)}`)
        .join(', ');
      const threads = Object.entries(row.threads ?? {})
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([thread, ms]) => `${thread} ${ms.toFixed(0)}`)
        .join(', ');
      return `| ${row.case} | ${row.cpuMsPerMinute.toFixed(1)} | ${above} | ${row.profile ? row.profile.inclusiveMs.toFixed(1) : '—'} | ${row.engineRequests ?? '—'} | ${scripts || '—'} | ${threads || '—'} |`;
    }),
    '',
  ];
  lines.push(
    "## Latency against VS Code's floor (real workbench, DOM rows)",
    '| containers | Berth open, median | floor open, median | open ratio | Berth change, median | floor change, median | change ratio |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  const firstWindow: string[] = [];
  for (const containers of SIZES) {
    const berth = report.latency.find((row) => row.subject === 'Berth' && row.containers === containers);
    const floor = report.latency.find((row) => row.subject === 'floor' && row.containers === containers);
    if (!berth || !floor) continue;
    lines.push(`| ${containers.toLocaleString('en')} | ${berth.open.median.toFixed(0)} ms | ${floor.open.median.toFixed(0)} ms | ${ratio(berth.open.median, floor.open.median)} | ${berth.change.median.toFixed(0)} ms | ${floor.change.median.toFixed(0)} ms | ${ratio(berth.change.median, floor.change.median)} |`);
    const listed = berth.engineListingAfterOpen ? `${berth.engineListingAfterOpen.median.toFixed(0)} ms` : '—';
    const first = berth.firstWindowOpen ? `${berth.firstWindowOpen.median.toFixed(0)} ms (${ratio(berth.firstWindowOpen.median, floor.open.median)})` : '—';
    firstWindow.push(`| ${containers.toLocaleString('en')} | ${first} | ${listed} |`);
  }
  if (!SHAPED_FLOOR && firstWindow.length > 0) {
    lines.push(
      '',
      "Berth's opens above are a returning user's: the window opens on the list the last one saved, and the engine's own listing replaces it. A first window has no saved list:",
      '| containers | Berth open, first window (ratio to the floor) | saved list → engine\'s listing shown, median |',
      '| ---: | ---: | ---: |',
      ...firstWindow,
    );
  }
  const keystrokeRows = SIZES.flatMap((containers) => {
    const berth = report.latency.find((row) => row.subject === 'Berth' && row.containers === containers);
    const floor = report.latency.find((row) => row.subject === 'floor' && row.containers === containers);
    if (!berth?.keystroke || !floor) return [];
    const keystroke = berth.keystroke;
    const floorKeystroke = floor.keystroke ? `${floor.keystroke.median.toFixed(0)} ms (p90 ${floor.keystroke.p90.toFixed(0)}) | ${ratio(keystroke.median, floor.keystroke.median)}` : '— | —';
    const earlier = report.latency.find((row) => row.subject === 'Berth before' && row.containers === containers)?.keystroke;
    const beforeRow = earlier
      ? [`| ${containers.toLocaleString('en')}, Berth before (${report.before ?? '?'}) | ${earlier.median.toFixed(0)} ms | ${earlier.p90.toFixed(0)} ms | ${floor.change.median.toFixed(0)} ms | ${ratio(earlier.median, floor.change.median)} | ${floor.keystroke ? `${floor.keystroke.median.toFixed(0)} ms | ${ratio(earlier.median, floor.keystroke.median)}` : '— | —'} | ${earlier.samples} |`]
      : [];
    return [`| ${containers.toLocaleString('en')} | ${keystroke.median.toFixed(0)} ms | ${keystroke.p90.toFixed(0)} ms | ${floor.change.median.toFixed(0)} ms | ${ratio(keystroke.median, floor.change.median)} | ${floorKeystroke} | ${keystroke.samples} |`, ...beforeRow];
  });
  if (keystrokeRows.length > 0) {
    lines.push(
      '',
      `## The Containers filter: keystroke → rows (real workbench, DOM rows)`,
      `"Berth: Filter Containers…" from the palette, then \`${TYPED}\` typed one character at a time; each keystroke hides another ${(100 / (TYPED.length + 1)).toFixed(1)} % of the containers. Timed from just before the key is pressed to every row of the view containing the typed text; the floor's change is its root refresh → row, and the floor's keystroke the same typing in an input box that refreshes the floor's view with the items containing the text, in the same run.`,
      '| containers | Berth keystroke, median | Berth keystroke, p90 | floor change, median | ratio | floor keystroke, median | ratio | Berth keystrokes |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...keystrokeRows,
    );
  }
  if (SHAPED_FLOOR) lines.push('', `The "Berth" columns are the floor with rows shaped \`${SHAPED_FLOOR}\` (BERTH_BENCH_UI_SHAPED_FLOOR), not Berth.`);
  if (report.missing.length > 0) lines.push('', `Changes whose row did not show in Berth's view within 90 s (left out of the medians): ${report.missing.length}`, ...report.missing.map((entry) => `- ${entry}`));
  lines.push('', targetsTable(report.targets), '');
  return lines.join('\n');
}

function targets(idle: IdleCpu[], latency: UiLatency[]): TargetCheck[] {
  const baseline = idle.find((row) => row.engineRequests === undefined)?.cpuMsPerMinute ?? Number.NaN;
  const checks: TargetCheck[] = [];
  const windows = [
    ['Berth, views hidden', 'views hidden', 20],
    ['Berth, views visible', `views visible, ${AGING_ROWS} rows aging each second for the first 25 s`, 60],
    [STEADY_VISIBLE_CASE, 'views visible, no row under a minute old', 60],
  ] as const;
  for (const [name, what, limit] of windows) {
    const row = idle.find((candidate) => candidate.case === name);
    if (!row) continue;
    const above = row.cpuMsPerMinute - baseline;
    checks.push({ target: `${what}, idle: ≤ +${limit} ms CPU per minute over the baseline`, measured: `${signed(above)} ms (${row.cpuMsPerMinute.toFixed(1)} against ${baseline.toFixed(1)})`, met: above <= limit });
    checks.push({ target: `${what}, idle: 0 engine requests`, measured: String(row.engineRequests), met: row.engineRequests === 0 });
  }
  // Context, not a goal of the issue: what VS Code itself costs with a visible tree of 1,000 prebuilt items.
  const floorIdle = idle.find((row) => row.case.startsWith('floor extension'));
  const visible = idle.find((row) => row.case === 'Berth, views visible');
  if (floorIdle && visible) {
    const above = visible.cpuMsPerMinute - floorIdle.cpuMsPerMinute;
    checks.push({ target: 'views visible, idle, against the floor extension\'s visible tree, its rows aging as Berth\'s do (context: VS Code\'s own cost of that tree)', measured: `${signed(above)} ms (${visible.cpuMsPerMinute.toFixed(1)} against ${floorIdle.cpuMsPerMinute.toFixed(1)}; the floor is ${(floorIdle.cpuMsPerMinute - baseline).toFixed(1)} ms over the baseline)`, met: above <= 60 });
  }
  for (const containers of SIZES) {
    const berth = latency.find((row) => row.subject === 'Berth' && row.containers === containers);
    const floor = latency.find((row) => row.subject === 'floor' && row.containers === containers);
    if (!berth || !floor) continue;
    const change = berth.change.median / floor.change.median;
    const open = berth.open.median / floor.open.median;
    checks.push({ target: `change ≤ 1.3× the floor, ${containers.toLocaleString('en')} containers`, measured: `${change.toFixed(2)}×`, met: change <= 1.3 });
    checks.push({ target: `open ≤ 1.5× the floor, ${containers.toLocaleString('en')} containers`, measured: `${open.toFixed(2)}×`, met: open <= 1.5 });
    if (berth.keystroke) {
      const keystroke = berth.keystroke.median / floor.change.median;
      checks.push({ target: `filter keystroke → rows ≤ 1.3× the floor's change, ${containers.toLocaleString('en')} containers`, measured: `${keystroke.toFixed(2)}×`, met: keystroke <= 1.3 });
      if (floor.keystroke) {
        const againstKeystroke = berth.keystroke.median / floor.keystroke.median;
        checks.push({ target: `filter keystroke → rows against the floor's own filter keystroke (context), ${containers.toLocaleString('en')} containers: ≤ 1.3×`, measured: `${againstKeystroke.toFixed(2)}×`, met: againstKeystroke <= 1.3 });
      }
    }
    if (berth.firstWindowOpen) {
      const first = berth.firstWindowOpen.median / floor.open.median;
      checks.push({ target: `open in a first window, no saved list (context), ${containers.toLocaleString('en')} containers: ≤ 1.5× the floor`, measured: `${first.toFixed(2)}×`, met: first <= 1.5 });
    }
  }
  return checks;
}

/** `before`: Berth built from an earlier commit, launched beside the current build in each round (no idle windows). */
export async function measureUi(engine: BenchEngine, berthDir: string, log: (line: string) => void, before?: { dir: string; commit: string }): Promise<UiReport> {
  const floors = writeFloorExtensions();
  const proxy = await countingProxy(engine.socketPath);
  const runId = `extui-${process.pid}`;
  const set = fixtureLabels(runId, 'ui');
  const floorSocket = join(tmpdir(), `berth-bench-floor-${process.pid}.sock`);
  const berthSettings = { 'berth.engine.host': proxy.host, 'berth.run.network': 'none' };
  const idle: IdleCpu[] = [];
  const latency: UiLatency[] = [];
  const missing: string[] = [];
  const profileHost = await buildProfileHost();
  try {
    log('idle CPU: an extension host with no extension');
    // As long after start-up as Berth's idle windows come (open, changes, then the same settling).
    if (!SHAPED_FLOOR && !LATENCY_ONLY) idle.push(await baselineIdle({ extensionDir: floors.baselineDir, profileHost, settings: {}, log }, SETTLE_MS + BASELINE_EXTRA_SETTLE_MS, WINDOW_MS));
    let created: string[] = [];
    for (const containers of SIZES) {
      if (!SHAPED_FLOOR) {
        log(`creating ${containers - created.length} containers`);
        const first = created.length;
        created = [...created, ...(await createIdleContainers(engine.client, engine.image, containers - created.length, set.labels, (index) => filterBenchName(String(process.pid), first + index)))];
      }
      const opens = { Berth: [] as number[], floor: [] as number[] };
      const changes = { Berth: [] as number[], floor: [] as number[] };
      const firstWindowOpens: number[] = [];
      const engineListingAfterOpen: number[] = [];
      const keystrokes: number[] = [];
      const floorKeystrokes: number[] = [];
      // What Berth's last window saved for this engine (src/model/savedListing.ts): each timed launch opens on it, as
      // a returning user's window does. A first window, with none, is timed once per size before them.
      let saved: Record<string, string> = {};
      const beforeRuns = { opens: [] as number[], changes: [] as number[], keystrokes: [] as number[] };
      const berthRun = async (withIdle: boolean, userDataFiles: Record<string, string> | undefined, extensionDir = berthDir): Promise<BerthRun> =>
        berthLaunch({
          extensionDir,
          profileHost: withIdle || process.env.BERTH_BENCH_PROFILE_OPEN === '1' || process.env.BERTH_BENCH_PROFILE_KEYSTROKES === '1' ? profileHost : undefined,
          settings: berthSettings,
          log,
          client: engine.client,
          image: engine.image,
          requests: () => proxy.requests(),
          changes: CHANGES_PER_LAUNCH,
          userDataFiles,
          afterChanges: KEYSTROKE_ROUNDS > 0 ? (page) => measureFilterKeystrokes(page, BERTH_FILTER, KEYSTROKE_ROUNDS, log) : undefined,
          keepSavedListings: (files) => {
            if (Object.keys(files).length > 0) saved = files;
          },
          idle: withIdle
            ? {
                settleMs: SETTLE_MS,
                windowMs: WINDOW_MS,
                beforeIdle: async () => {
                  for (const id of created.slice(0, AGING_ROWS)) await engine.client.containers.start(id);
                },
              }
            : undefined,
        });
      if (!SHAPED_FLOOR) {
        log(`Berth, ${containers.toLocaleString('en')} containers, a first window (no saved list)`);
        try {
          const first = await berthRun(false, undefined);
          firstWindowOpens.push(first.open);
          changes.Berth.push(...first.changes);
          keystrokes.push(...first.keystrokes);
          missing.push(...first.missing);
        } catch (error) {
          missing.push(`Berth, ${containers.toLocaleString('en')} containers, first window: ${(error as Error).message.split('\n')[0] ?? ''}`);
        }
        if (Object.keys(saved).length === 0) log('the first window left no saved list: the next launches open without one');
      }
      for (let launch = 1; launch <= LAUNCHES; launch++) {
        // Alternate which goes first, so a busier moment of the machine falls on both.
        const subjects = before ? (['floor', 'Berth', 'Berth before'] as const) : (['floor', 'Berth'] as const);
        const order = launch % 2 === 1 ? [...subjects] : [...subjects].reverse();
        const measureLaunch = async (subject: UiLatency['subject']): Promise<void> => {
          if (subject === 'Berth before' && before) {
            const run = await berthRun(false, saved, before.dir);
            beforeRuns.opens.push(run.open);
            beforeRuns.changes.push(...run.changes);
            beforeRuns.keystrokes.push(...run.keystrokes);
            missing.push(...run.missing.map((entry) => `before: ${entry}`));
            return;
          }
          if (subject === 'floor' || SHAPED_FLOOR) {
            rmSync(floorSocket, { force: true });
            const shape = subject === 'Berth' ? SHAPED_FLOOR : undefined;
            const env = { BERTH_FLOOR_ITEMS: String(containers), BERTH_FLOOR_SOCKET: floorSocket, BERTH_FLOOR_SHAPE: shape ?? '', BERTH_FLOOR_TYPED: KEYSTROKE_ROUNDS > 0 ? TYPED : '' };
            const floorIdle = !SHAPED_FLOOR && !LATENCY_ONLY && containers === SIZES[0] && launch === 1;
            const run = await floorLaunch({
              extensionDir: shape === 'berth-menus' || shape === 'berth-view' || shape === 'berth-view-short' ? floors.floorMenusDir : floors.floorDir,
              profileHost: floorIdle ? profileHost : undefined,
              settings: {},
              env,
              log,
              socket: floorSocket,
              changes: CHANGES_PER_LAUNCH,
              idle: floorIdle ? { settleMs: SETTLE_MS, windowMs: WINDOW_MS, agingRows: AGING_ROWS } : undefined,
              afterChanges: KEYSTROKE_ROUNDS > 0 && !shape ? (page) => measureFilterKeystrokes(page, FLOOR_FILTER, KEYSTROKE_ROUNDS, log) : undefined,
            });
            floorKeystrokes.push(...run.keystrokes);
            opens[subject === 'Berth' ? 'Berth' : 'floor'].push(run.open);
            changes[subject === 'Berth' ? 'Berth' : 'floor'].push(...run.changes);
            if (run.idle) idle.push(run.idle);
            return;
          }
          const withIdle = !LATENCY_ONLY && containers === SIZES[0] && launch === 1;
          const run = await berthRun(withIdle, saved);
          if (run.engineListingAfterOpen !== undefined) engineListingAfterOpen.push(run.engineListingAfterOpen);
          else log("no saved list showed in this launch: the engine's listing was in before the view drew its rows");
          opens.Berth.push(run.open);
          changes.Berth.push(...run.changes);
          keystrokes.push(...run.keystrokes);
          idle.push(...run.idle);
          missing.push(...run.missing);
        };
        for (const subject of order) {
          log(`${subject}, ${containers.toLocaleString('en')} containers, launch ${launch}/${LAUNCHES}`);
          // One launch that breaks on an overloaded machine costs its own samples, not the run's. code-server now and
          // then starts without the extension host (its log: "took longer than 60s to send its ready message"), so a
          // launch that failed is tried once more before it counts as missing.
          for (let attempt = 1; attempt <= 2; attempt++) {
            try {
              await measureLaunch(subject);
              break;
            } catch (error) {
              const reason = (error as Error).message.split('\n')[0] ?? '';
              log(`${subject} launch ${launch}, attempt ${attempt} failed: ${reason}`);
              if (attempt === 2) missing.push(`${subject}, ${containers.toLocaleString('en')} containers, launch ${launch}: ${reason}`);
            }
          }
        }
      }
      latency.push(latencyRow('floor', containers, opens.floor, changes.floor, { keystrokes: floorKeystrokes }), latencyRow('Berth', containers, opens.Berth, changes.Berth, { firstWindowOpens, engineListingAfterOpen, keystrokes }));
      if (before && beforeRuns.opens.length > 0) latency.push(latencyRow('Berth before', containers, beforeRuns.opens, beforeRuns.changes, { keystrokes: beforeRuns.keystrokes }));
    }
  } finally {
    log(`removed ${await removeRunContainers(engine.client, runId)} containers`);
    await proxy.close();
    floors.dispose();
  }
  const report: UiReport = { date: new Date().toISOString(), missing, idle, latency, targets: targets(idle, latency), before: before?.commit };
  writeFileSync(join(__dirname, `${UI_RESULTS}.md`), `# Explorer in the real workbench (bench/extension-ui-run.ts)\n\n${uiMarkdown(report)}`);
  writeFileSync(join(__dirname, `${UI_RESULTS}.json`), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
