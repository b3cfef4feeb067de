import { EngineClient, runContainer } from '../../src/engine';
import { loadTestEngines, cleanupLabel } from '../support/engines';
const e = loadTestEngines();
async function main() {
  const c = EngineClient.fromEnvironment({ host: e.dockerHost });
  for (const size of [1 << 20, 1 << 20, 1 << 20, 1<<20, 16 << 20]) {
    const t0 = Date.now(); let n = 0; let chunks = 0;
    const r = await runContainer(c, { image: e.image, cmd: ['sh', '-c', `yes berth-line | head -c ${size}`], labels: cleanupLabel, networkMode: 'none', onOutput: (ch) => { n += ch.data.length; chunks++; } });
    let m = 0;
    for await (const ch of c.containerLogs(r.id, { stdout: true, stderr: true })) m += ch.data.length;
    console.log(size, n, m, chunks, r.exitCode, Date.now() - t0, 'ms');
    await c.removeContainer(r.id, { force: true });
  }
  await c.close();
}
void main();
