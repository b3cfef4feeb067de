/**
 * Runs INSIDE the extension host (loaded as extensionTestsPath by bench/extension-ui.ts): a V8 CPU profiler the
 * launcher drives over a unix socket (`start`, `stop`, `done`), so an idle window can say WHERE the extension host
 * spent its CPU, and how much of it was Berth's own code. Same contract as a test suite: run() settles at `done`.
 */
import { createServer } from 'node:net';
import { Session } from 'node:inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  /** Sampled time whose stack has a frame of `marker` (Berth's bundle), ms. */
  readonly inclusiveMs: number;
  /** Sampled time with the top frame in each script (the last path segment), ms; `(idle)` left out. */
  readonly selfByScript: Record<string, number>;
  /** The heaviest functions under Berth's frames, ms. */
  readonly topInclusive: Array<{ frame: string; ms: number }>;
  /** Bytes allocated in the window (V8's sampling heap profiler), by the function that allocated, top 8. */
  readonly topAllocations?: Array<{ frame: string; kb: number }>;
  /** Of those bytes, the share allocated with a Berth frame on the stack, KB. */
  readonly berthAllocatedKb?: number;
}

interface SamplingHeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingHeapNode[];
}

/** Who allocated: self bytes by function, and the bytes allocated under a Berth frame. */
function summarizeAllocations(head: SamplingHeapNode, marker: string): { topAllocations: Array<{ frame: string; kb: number }>; berthAllocatedKb: number } {
  const bySelf = new Map<string, number>();
  let berth = 0;
  const walk = (node: SamplingHeapNode, underBerth: boolean): void => {
    const frame = node.callFrame;
    const inBerth = underBerth || frame.url.includes(marker);
    if (node.selfSize > 0) {
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber}`;
      bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
      if (inBerth) berth += node.selfSize;
    }
    for (const child of node.children) walk(child, inBerth);
  };
  walk(head, false);
  const topAllocations = [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([frame, bytes]) => ({ frame, kb: bytes / 1024 }));
  return { topAllocations, berthAllocatedKb: berth / 1024 };
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

function summarize(profile: Profile, marker: string): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfByScript: Record<string, number> = {};
  const under = new Map<string, number>();
  let inclusiveMs = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let index = 0; index < samples.length; index++) {
    const ms = (deltas[index + 1] ?? deltas[index] ?? 0) / 1000;
    const top = byId.get(samples[index] ?? -1);
    if (!top) continue;
    const script = top.callFrame.url ? (top.callFrame.url.split('/').pop() ?? top.callFrame.url) : top.callFrame.functionName || '(native)';
    if (script === '(idle)') continue;
    selfByScript[script] = (selfByScript[script] ?? 0) + ms;
    let berthFrame: string | undefined;
    for (let id: number | undefined = top.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame?.url.includes(marker)) berthFrame = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}`;
    }
    if (berthFrame === undefined) continue;
    inclusiveMs += ms;
    under.set(berthFrame, (under.get(berthFrame) ?? 0) + ms);
  }
  const topInclusive = [...under].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([frame, ms]) => ({ frame, ms }));
  return { inclusiveMs, selfByScript, topInclusive };
}

export function run(): Promise<void> {
  const session = new Session();
  session.connect();
  const marker = process.env.BERTH_PROFILE_MARKER ?? '/dist/extension.js';
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', (data) => {
        const command = data.toString('utf8').trim();
        const answer = async (): Promise<unknown> => {
          if (command === 'start') {
            await post(session, 'Profiler.enable');
            await post(session, 'Profiler.setSamplingInterval', { interval: 1000 });
            await post(session, 'Profiler.start');
            // Every allocation has a 1 in 16 KiB chance to be sampled; the samples say who allocates while idle.
            await post(session, 'HeapProfiler.enable');
            await post(session, 'HeapProfiler.startSampling', { samplingInterval: 16_384 });
            return { started: true };
          }
          if (command === 'stop') {
            const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
            const heap = await post<{ profile: { head: SamplingHeapNode } }>(session, 'HeapProfiler.stopSampling').catch(() => undefined);
            return { ...summarize(profile, marker), ...(heap ? summarizeAllocations(heap.profile.head, marker) : {}) };
          }
          server.close();
          session.disconnect();
          resolve();
          return { done: true };
        };
        answer().then(
          (result) => socket.write(`${JSON.stringify(result)}\n`),
          (error: unknown) => socket.write(`${JSON.stringify({ error: String(error) })}\n`),
        );
      });
    });
    server.listen(process.env.BERTH_PROFILE_SOCKET);
  });
}
