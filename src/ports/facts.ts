/**
 * Which ports each container has. A running container's come with its listing row; a container that is not running
 * has only port bindings, which the listing leaves out: they are read by one inspect per record (a record is
 * replaced when its container changes, so the answer never goes stale), only when its row is expanded or a command
 * asks. Never on drawing a row: a view of a thousand created containers would otherwise inspect each of them.
 */
import { errorMessage } from '../common/errors';
import { shortId } from '../common/format';
import { portsOfInspect, portsOfSummary, type PublishedPort } from '../model/ports';
import { isRunningState, type ContainerRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import type { LogDeps } from '../workbench/deps';

export class PortFacts {
  private readonly bindings = new WeakMap<ContainerRecord, PublishedPort[]>();
  private readonly reading = new WeakMap<ContainerRecord, Promise<PublishedPort[]>>();

  /** ON_READ: bindings were read for RECORD (its row can now show them). */
  constructor(
    private readonly deps: LogDeps,
    private readonly onRead: (engine: string, record: ContainerRecord) => void = () => undefined,
  ) {}

  /** The ports known now: a running container's from its listing, another's once read; undefined until then. */
  known(record: ContainerRecord): PublishedPort[] | undefined {
    return isRunningState(record.state) ? portsOfSummary(record.summary.Ports) : this.bindings.get(record);
  }

  /** The ports, read by inspect for a container that is not running (once per record). */
  read(session: EngineSession, record: ContainerRecord, signal?: AbortSignal): Promise<PublishedPort[]> {
    const known = this.known(record);
    if (known !== undefined) return Promise.resolve(known);
    let reading = this.reading.get(record);
    if (!reading) {
      reading = session.client.inspectContainer(record.id, { signal }).then(
        (inspect) => portsOfInspect(inspect),
        (error: unknown) => {
          // A row has no place for the error: without bindings it shows no ports, and the log says why.
          this.deps.log.warn(`Reading the port bindings of ${shortId(record.id)}: ${errorMessage(error)}`);
          return [];
        },
      );
      this.reading.set(record, reading);
      void reading.then((ports) => {
        this.bindings.set(record, ports);
        // A container's bindings are fixed when it is created, so they hold for the record that replaced RECORD
        // meanwhile too (a row from its create event, completed by its inspect while the bindings were read).
        const current = session.model.container(record.id);
        if (current && current !== record && !this.bindings.has(current)) this.bindings.set(current, ports);
        this.onRead(session.id, current ?? record);
      });
    }
    return reading;
  }
}
