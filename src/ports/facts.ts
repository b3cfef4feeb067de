/**
 * Which ports each container has. A running container's come with its listing row; a container that is not running
 * has only port bindings, which the listing leaves out: they are read by one inspect per container, only when its row
 * is expanded or a command asks. Bindings are fixed when a container is created, so they are kept by container id and
 * hold for every later record of it (a row from its create event is replaced by its inspect's a moment later). One
 * small entry per container ever expanded, never pruned: a removed container's costs a few bytes. Never on drawing a row: a view of a thousand created containers would otherwise inspect each of them.
 */
import { errorMessage } from '../common/errors';
import { shortId } from '../common/format';
import { onNetworkNone, portsOfInspect, portsOfSummary, type PublishedPort } from '../model/ports';
import { isRunningState, type ContainerRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import type { LogDeps } from '../workbench/deps';

export class PortFacts {
  private readonly bindings = new Map<string, PublishedPort[]>();
  private readonly reading = new Map<string, Promise<PublishedPort[]>>();

  /** ON_READ: bindings were read for RECORD (its row can now show them). */
  constructor(
    private readonly deps: LogDeps,
    private readonly onRead: (engine: string, record: ContainerRecord) => void = () => undefined,
  ) {}

  /** The ports known now: a running container's from its listing, another's once read; undefined until then. */
  known(record: ContainerRecord): PublishedPort[] | undefined {
    // On network `none` the listing has no ports at all: the bindings (never published) come from inspect.
    return isRunningState(record.state) && !onNetworkNone(record.summary) ? portsOfSummary(record.summary.Ports) : this.bindings.get(record.id);
  }

  /** The ports, read by inspect for a container that is not running (once per container). */
  read(session: EngineSession, record: ContainerRecord, signal?: AbortSignal): Promise<PublishedPort[]> {
    const known = this.known(record);
    if (known !== undefined) return Promise.resolve(known);
    let reading = this.reading.get(record.id);
    if (!reading) {
      const id = record.id;
      reading = session.client.containers.inspect(id, { signal }).then(
        (inspect) => {
          const ports = portsOfInspect(inspect);
          this.bindings.set(id, ports);
          return ports;
        },
        (error: unknown) => {
          // A row has no place for the error: without bindings it shows no ports, and the log says why. Nothing is
          // kept, so the next expansion asks again.
          this.deps.log.warn(`Reading the port bindings of ${shortId(id)}: ${errorMessage(error)}`);
          return [];
        },
      );
      this.reading.set(id, reading);
      void reading.then(() => {
        this.reading.delete(id);
        this.onRead(session.id, session.model.container(id) ?? record);
      });
    }
    return reading;
  }
}
