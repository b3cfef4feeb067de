/**
 * CPU and memory on the running rows of the Containers view (only the rows on screen, only while the view is
 * visible, redrawn at most once a second), and the last health-check output in an unhealthy row's tooltip.
 */
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { ContainerNode } from '../containers';
import { containerHealth, type ContainerRecord } from '../model/records';
import type { StatsDeps } from './deps';
import { healthTooltip, statsDescription, statsTooltip } from './rows';
import { StatsWatcher } from './statsWatcher';

export class TreeStats extends Disposable {
  /** One watcher per engine session id. */
  private readonly watchers = new Map<string, StatsWatcher>();
  /** The last health check of unhealthy records, fetched once per record (a health_status event replaces the record). */
  private readonly healthOutput = new WeakMap<ContainerRecord, { text: string | undefined }>();

  constructor(private readonly deps: StatsDeps) {
    super();
    this._register(deps.containersView.setDecorator((node) => this.decorate(node)));
    this._register(deps.containersView.onDidChangeRows(() => this.sync()));
    this._register(deps.onDidChangeSettings(() => this.sync()));
    this._register(deps.onDidChangeEngines(() => this.sync()));
    this._register({ dispose: () => this.stopAll() });
    this.sync();
  }

  openStreams(): number {
    let count = 0;
    for (const watcher of this.watchers.values()) count += watcher.openStreams;
    return count;
  }

  /** Opens streams for the running rows on screen, closes every other one. */
  private sync(): void {
    const wanted = new Map<string, string[]>();
    if (this.deps.settings.showStats) {
      for (const node of this.deps.containersView.rowsOnScreen()) {
        if (node.record.state !== 'running') continue;
        const ids = wanted.get(node.engine) ?? [];
        ids.push(node.id);
        wanted.set(node.engine, ids);
      }
    }
    for (const [engine, watcher] of this.watchers) {
      if (wanted.has(engine)) continue;
      watcher.dispose();
      this.watchers.delete(engine);
    }
    for (const [engine, ids] of wanted) this.watcherFor(engine).watch(ids);
  }

  private watcherFor(engine: string): StatsWatcher {
    let watcher = this.watchers.get(engine);
    if (!watcher) {
      watcher = new StatsWatcher(
        () => this.deps.sessionFor(engine).client,
        (ids) => this.deps.containersView.redraw(ids.flatMap((id) => this.deps.containersView.node(id, engine) ?? [])),
        (line) => this.deps.log.debug(line),
      );
      this.watchers.set(engine, watcher);
    }
    return watcher;
  }

  private stopAll(): void {
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
  }

  private decorate(node: ContainerNode): { description?: string | undefined; tooltip?: string | undefined } | undefined {
    const health = containerHealth(node.record) === 'unhealthy' ? this.lastHealthCheck(node) : undefined;
    // A row that stopped shows its state only: the figures of a stopped container are not shown, and are no error.
    const figures = node.record.state === 'running' && this.deps.settings.showStats ? this.watchers.get(node.engine)?.figures(node.id) : undefined;
    const tooltip = [statsTooltip(figures), health].filter((part) => part !== undefined).join('\n\n');
    return { description: statsDescription(figures), tooltip: tooltip || undefined };
  }

  private lastHealthCheck(node: ContainerNode): string | undefined {
    const known = this.healthOutput.get(node.record);
    // `text` stays undefined while the inspect is on its way.
    if (known !== undefined) return known.text;
    const record = node.record;
    this.healthOutput.set(record, { text: undefined });
    this.deps
      .sessionFor(node.engine)
      .client.containers.inspect(node.id)
      .then(
        (inspect) => {
          const last = inspect.State.Health?.Log?.at(-1);
          this.healthOutput.set(record, { text: healthTooltip(last?.Output, last?.ExitCode) });
          const current = this.deps.containersView.node(node.id, node.engine);
          if (current) this.deps.containersView.redraw([current]);
        },
        (error: unknown) => this.healthOutput.set(record, { text: `Last health check: could not be read (${errorMessage(error)})` }),
      );
    return undefined;
  }
}
