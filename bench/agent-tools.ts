/**
 * `npm run bench:agents`: issue 38's figures, measured in one run on the private dockerd.
 * - Tool latency: `list_containers` and `inspect_container` through the tool layer (schema check, the engine call,
 *   the bounded result) against the same engine call made directly, with CONTAINERS containers present. Calls
 *   interleaved, ROUNDS each; ratios from medians.
 * - `berth mcp` start-up: spawn to the first tool answer (the SDK's client over stdio), against `berth ps` spawned,
 *   interleaved, STARTS each.
 * Every container carries this run's label and is removed at the end. Writes bench/agent-tools-results.{md,json}.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EngineClient } from '../src/engine';
import { agentTool, invokeAgentTool, type AgentTool, type ToolContext } from '../src/tools';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines, uniqueName } from '../test/support/engines';
import { elapsedMs, rotated, summarize, type Summary } from './stats';

const execFileAsync = promisify(execFile);
const CONTAINERS = Number(process.env.BERTH_BENCH_AGENT_CONTAINERS ?? 1000);
const ROUNDS = Number(process.env.BERTH_BENCH_AGENT_ROUNDS ?? 50);
const STARTS = Number(process.env.BERTH_BENCH_AGENT_STARTS ?? 15);
const repoRoot = resolve(__dirname, '..');

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return elapsedMs(start);
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < items.length; at += size) await Promise.all(items.slice(at, at + size).map(work));
}

async function firstMcpAnswer(cli: string, host: string): Promise<void> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, '--host', host, 'mcp'] }));
  try {
    const result = await client.callTool({ name: 'engine_info', arguments: {} });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const engines = loadTestEngines();
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost });
  const marker = uniqueName('bench-agent');
  const labels = { 'berth.test': '1', 'berth.bench.agents': marker };
  const workDir = mkdtempSync(join(tmpdir(), 'berth-bench-agents-'));
  const context: ToolContext = { client, cwd: workDir, environment: {}, engineIsLocal: true, engines: () => [], now: Date.now };
  const ids: string[] = [];
  try {
    await execFileAsync(process.execPath, [join(repoRoot, 'esbuild.js'), `--cli-outdir=${workDir}`], { cwd: repoRoot });
    const cli = join(workDir, 'cli.js');
    await inBatches(Array.from({ length: CONTAINERS }, (_, index) => index), 20, async (index) => {
      const { Id } = await client.containers.create(containerSpec(engines.image, ['true'], { Labels: labels }), { name: `${marker}-${index}` });
      ids.push(Id);
    });
    const target = `${marker}-${Math.floor(CONTAINERS / 2)}`;
    const list = agentTool('list_containers') as AgentTool;
    const inspect = agentTool('inspect_container') as AgentTool;
    const samples: Record<string, number[]> = { listDirect: [], listTool: [], inspectDirect: [], inspectTool: [], ps: [], mcp: [] };
    const pairs: Array<[string, () => Promise<unknown>]> = [
      ['listDirect', () => client.containers.list({ all: true })],
      ['listTool', () => invokeAgentTool(list, { all: true }, context)],
      ['inspectDirect', () => client.containers.inspect(target)],
      ['inspectTool', () => invokeAgentTool(inspect, { container: target }, context)],
    ];
    for (const [, work] of pairs) await work(); // warm: connections, the validators, the JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, work] of rotated(pairs, round)) samples[name]?.push(await timed(work));
    }
    const starts: Array<[string, () => Promise<unknown>]> = [
      ['ps', () => execFileAsync(process.execPath, [cli, '--host', engines.dockerHost, 'ps'])],
      ['mcp', () => firstMcpAnswer(cli, engines.dockerHost)],
    ];
    for (let round = 0; round < STARTS; round++) {
      for (const [name, work] of rotated(starts, round)) samples[name]?.push(await timed(work));
    }
    const summary = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)])) as Record<string, Summary>;
    const ratio = (a: string, b: string): number => (summary[a]?.median ?? NaN) / (summary[b]?.median ?? NaN);
    const row = (label: string, name: string, against: string): string => {
      const s = summary[name] as Summary;
      return `| ${label} | ${s.median.toFixed(1)} | ${s.p10.toFixed(1)}–${s.p90.toFixed(1)} | ${ratio(name, against).toFixed(2)}× |`;
    };
    const markdown = [
      `# Agent tools (${new Date().toISOString().slice(0, 10)}, ${CONTAINERS} containers, ${ROUNDS} calls each, ${STARTS} starts each)`,
      '',
      '| what | median ms | p10–p90 ms | against |',
      '| --- | ---: | ---: | ---: |',
      `| list, engine call | ${summary['listDirect']?.median.toFixed(1)} | ${summary['listDirect']?.p10.toFixed(1)}–${summary['listDirect']?.p90.toFixed(1)} | 1.00× |`,
      row('list_containers tool', 'listTool', 'listDirect'),
      `| inspect, engine call | ${summary['inspectDirect']?.median.toFixed(1)} | ${summary['inspectDirect']?.p10.toFixed(1)}–${summary['inspectDirect']?.p90.toFixed(1)} | 1.00× |`,
      row('inspect_container tool', 'inspectTool', 'inspectDirect'),
      `| berth ps, spawned | ${summary['ps']?.median.toFixed(1)} | ${summary['ps']?.p10.toFixed(1)}–${summary['ps']?.p90.toFixed(1)} | 1.00× |`,
      row('berth mcp, spawn to first answer', 'mcp', 'ps'),
      '',
    ].join('\n');
    writeFileSync(join(__dirname, 'agent-tools-results.md'), markdown);
    writeFileSync(join(__dirname, 'agent-tools-results.json'), `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(markdown);
  } finally {
    await inBatches(ids, 20, (id) => client.containers.remove(id, { force: true }).catch(() => undefined));
    await client.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
