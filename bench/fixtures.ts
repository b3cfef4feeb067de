/**
 * What the benchmarks measure against: labelled containers (created, never started, NetworkMode none) and one
 * finished container that wrote 100 MB to stdout. Everything carries `berth.test=1` and a per-run label, and is
 * removed at the end; removal failures are reported, never hidden.
 */
import type { EngineClient } from '../src/engine';
import { containerSpec } from '../test/support/containerSpec';

export const LOG_BYTES = 100 * 1024 * 1024;
/** Log line length, newline included: realistic lines, not one giant frame. */
export const LOG_LINE_BYTES = 1024;

export interface FixtureLabels {
  /** `key=value` for a `label` filter that matches exactly this run's containers of one set. */
  readonly filter: string;
  readonly labels: Record<string, string>;
}

export function fixtureLabels(runId: string, set: string): FixtureLabels {
  return {
    filter: `berth.bench.set=${runId}-${set}`,
    labels: { 'berth.test': '1', 'berth.bench': runId, 'berth.bench.set': `${runId}-${set}` },
  };
}

/** Creates `count` containers with bounded concurrency (named by `nameOf`, else by the engine); resolves their ids. */
export async function createIdleContainers(client: EngineClient, image: string, count: number, labels: Record<string, string>, nameOf?: (index: number) => string): Promise<string[]> {
  const ids: string[] = [];
  const concurrency = 4;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const { Id } = await client.containers.create(containerSpec(image, ['true'], { Labels: labels }), nameOf ? { name: nameOf(index) } : {});
      ids.push(Id);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/** Runs a container that writes LOG_BYTES of text lines (`lineBytes` each, newline included) to stdout and waits for it to exit. */
export async function createLogContainer(client: EngineClient, image: string, labels: Record<string, string>, lineBytes = LOG_LINE_BYTES): Promise<string> {
  // `yes LINE` is fastest, but an argument may not exceed 128 KiB: longer lines repeat a file.
  const script = lineBytes <= 100_000
    ? `yes ${'7'.repeat(lineBytes - 1)} | head -c ${LOG_BYTES}`
    : `head -c ${lineBytes - 1} /dev/zero | tr '\\0' 7 > /tmp/line; echo >> /tmp/line; while cat /tmp/line; do :; done | head -c ${LOG_BYTES}`;
  const { Id } = await client.containers.create(containerSpec(image, ['sh', '-c', script], { Labels: labels }));
  const { result } = await client.containers.wait(Id, { condition: 'next-exit' });
  await client.containers.start(Id);
  const outcome = await result;
  if (outcome.StatusCode !== 0) throw new Error(`the log container exited with ${outcome.StatusCode}`);
  return Id;
}

/** Removes every container of this benchmark run; resolves how many were removed. */
export async function removeRunContainers(client: EngineClient, runId: string): Promise<number> {
  const containers = await client.containers.list({ all: true, filters: { label: [`berth.bench=${runId}`] } });
  const concurrency = 4;
  let next = 0;
  const failures: string[] = [];
  const worker = async (): Promise<void> => {
    while (next < containers.length) {
      const container = containers[next++];
      if (!container) return;
      try {
        await client.containers.remove(container.Id, { force: true });
      } catch (error) {
        failures.push(`${container.Id.slice(0, 12)}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failures.length > 0) throw new Error(`could not remove ${failures.length} benchmark containers: ${failures.join('; ')}`);
  return containers.length;
}
