// The bad-input rows of the workbench's first hour (issue 20): what the extension says, word for word. Asserted by
// test/e2e/firstHour.ts (the name prompt, the engine-down message) and test/integration/suite (second-engine:
// the engine-down message in the log; first-hour: Wait for Exit on a container that never started, a run
// without stdin; first-hour-rows: a remove refused because the container runs, and Remove with Force;
// first-hour-run: a run whose pull the registry refused, Sign In declined; ports: Open in Browser without
// ports, or with no TCP address). Part of BAD_INPUT_CASES.
import type { BadInputCase } from './bad-input-cases';

export const WORKBENCH_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'run-name-in-use-typed',
    category: 'The workbench',
    action: 'Run Container (name prompt)',
    input: 'a name another container has',
    kind: 'error',
    errorKind: 'conflict',
    message: 'The name "<name>" is already used by container <short id> (<state>). Choose another name, or remove that container first.',
  },
  {
    id: 'picker-engine-gone',
    category: 'The workbench',
    action: 'Stop / Show Logs / any command that asks for a container',
    input: 'the current engine went away',
    kind: 'error',
    errorKind: 'unreachable',
    message: 'The engine <engine> (<endpoint>) is unreachable: <reason>',
  },
  {
    id: 'wait-not-started',
    category: 'The workbench',
    action: 'Wait for Exit',
    input: 'a container that never started',
    kind: 'outcome',
    message: '<name> has not started, so it has no exit status to wait for. (Start and Wait, or pick a running container; never "exited with status 0")',
  },
  {
    id: 'run-no-input',
    category: 'The workbench',
    action: 'Run Container (terminal)',
    input: 'keys typed into a run without TTY or Interactive',
    kind: 'outcome',
    message: '[Berth] This run takes no input (run it with TTY or Interactive for that); Ctrl+C stops the container.',
  },
  {
    id: 'remove-running-refused',
    category: 'The workbench',
    action: 'Remove (a row drawn before the container started)',
    input: 'a running container, removed without force',
    kind: 'error',
    errorKind: 'conflict',
    message: "Removing <name> failed: <the engine's refusal>. Stop it first, or remove it with force",
  },
  {
    id: 'remove-running-force',
    category: 'The workbench',
    action: 'Remove with Force (the refusal\'s action)',
    input: 'the refused running container',
    kind: 'outcome',
    message: 'Asks "Remove the running container <name> with force?" (modal, by name, never the short id); Remove with Force kills and removes it, Cancel leaves it running',
  },
  {
    id: 'run-pull-refused-no-sign-in',
    category: 'Failed registry auth',
    action: 'Run Container / Run in Background (Sign In… declined)',
    input: 'an image only in a registry that wants credentials',
    kind: 'error',
    errorKind: 'unauthorized',
    message: '<registry> refused the pull of <image>, so nothing was created: <the engine\'s refusal, and: Sign in to the registry (Berth: Sign In to Registry, or docker login) … and try again>',
  },
  {
    id: 'ports-none',
    category: 'The workbench',
    action: 'Open in Browser / Copy Address',
    input: 'a container that publishes no port (Podman drops the bindings of a container without a network)',
    kind: 'error',
    errorKind: 'bad-request',
    message: '<name> publishes no port. Run the image again with a published port (Run Container\'s options, or berth run -p 8080:80)',
  },
  {
    id: 'ports-network-none',
    category: 'The workbench',
    action: 'Open in Browser / Copy Address',
    input: 'a created, running or stopped container on network none that was given published ports (Docker keeps the bindings and never opens them)',
    kind: 'error',
    errorKind: 'bad-request',
    message: '<name> is on network none, which drops published ports (<port>). Run the image again on another network (Run Container\'s --network option, or the berth.run.network setting)',
  },
  {
    id: 'ports-no-address',
    category: 'The workbench',
    action: 'Open in Browser / Copy Address',
    input: 'a container whose ports are UDP only, or a random host port it gets only when it starts',
    kind: 'error',
    errorKind: 'bad-request',
    message: '<name> has no TCP port with a host address yet (<port>: <why>). Start the container for a random host port; a UDP port has no browser address',
  },
  {
    id: 'volume-create-name-typed',
    category: 'The workbench',
    action: 'Create Volume (name prompt, as typed)',
    input: 'bad/name',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid volume name "bad/name": "/" is not allowed (use letters, digits, "_", "." and "-")',
  },
  {
    id: 'run-image-typed-invalid',
    category: 'The workbench',
    action: 'Run Container (image pick, as typed)',
    input: 'Ünïcode/ímage',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Invalid image reference "Ünïcode/ímage": registry host "Ünïcode" is not a valid host name',
  },
  {
    id: 'saved-listing-damaged',
    category: 'The workbench',
    action: 'open a window (Containers and Images views)',
    input: "a damaged or truncated saved listing in Berth's global storage (listings/listing-<hash>.json)",
    kind: 'outcome',
    message: "The views wait for the engine's listing, as in a first window; the log says \"The saved listing was not used (it is written again after the next listing): <file>: <what is wrong>\", and the next listing writes the file again",
  },
];

function rowOf(id: string): BadInputCase {
  const row = WORKBENCH_BAD_INPUT_CASES.find((entry) => entry.id === id);
  if (!row) throw new Error(`no bad-input row ${id}`);
  return row;
}

/** A row's message with its <placeholders> filled in (what a test compares the shown text with). */
export function workbenchMessage(id: string, values: Readonly<Record<string, string>>): string {
  return rowOf(id).message.replace(/<([^>]+)>/g, (whole, key: string) => values[key] ?? whole);
}

/** A row's message as a pattern: each <placeholder> matches any text (for messages whose values a test cannot know). */
export function rowPattern(id: string): RegExp {
  const parts = rowOf(id).message.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(parts.join('.+'));
}
