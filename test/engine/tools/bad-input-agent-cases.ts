// The agent tools' refusals (src/tools), as `berth mcp` and VS Code's language-model tools return them: asserted by
// test/engine/tools/mcp.test.ts against the real engines; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const AGENT_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'agent-unknown-container',
    category: 'Agents',
    action: 'berth mcp: container_logs',
    input: '{"container": "no-such-container-berth"}',
    kind: 'error',
    errorKind: 'not-found',
    message: 'container_logs failed: No such container: no-such-container-berth. Check the container id or name; the container may have been removed',
  },
  {
    id: 'agent-bad-image',
    category: 'Agents',
    action: 'berth mcp --allow-write: run_container',
    input: '{"image": "Busybox:latest"}',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'run_container failed: Invalid image reference "Busybox:latest": the repository name must be lowercase',
  },
  {
    id: 'agent-schema',
    category: 'Agents',
    action: 'berth mcp: inspect_container',
    input: '{}',
    kind: 'error',
    errorKind: 'schema',
    message: "inspect_container: the input needs the field \"container\". See the tool's input schema.",
  },
  {
    id: 'agent-huge-log',
    category: 'Agents',
    action: 'berth mcp: container_logs',
    input: '{"container": "web", "tail": 10000000000}',
    kind: 'error',
    errorKind: 'schema',
    message: "container_logs: tail must be <= 5000. See the tool's input schema.",
  },
  {
    id: 'agent-bad-time',
    category: 'Agents',
    action: 'berth mcp: container_logs',
    input: '{"container": "web", "since": "yesterday"}',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'container_logs failed: since: "yesterday" is not a time: write a duration before now (10m, 1h30m), unix seconds, or an RFC 3339 time (2026-11-28T06:00:00Z)',
  },
  {
    id: 'agent-read-only',
    category: 'Agents',
    action: 'berth mcp (no --allow-write): stop_container',
    input: '{"container": "web"}',
    kind: 'error',
    errorKind: 'read-only',
    message: 'berth mcp was started read-only. Start it with --allow-write to let agents start, stop, restart, remove, run, pull or use Compose.',
  },
  {
    id: 'agent-engine-down',
    category: 'Agents',
    action: 'berth mcp: list_containers',
    input: 'an engine socket that does not exist',
    kind: 'error',
    errorKind: 'unreachable',
    message: 'list_containers failed: <message>',
  },
];
