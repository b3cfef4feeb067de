// The Ports rows' words and context values, and what a container row gets from them (vscode-free view-model).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { droppedPortsWarning, onNetworkNone, openablePorts, portAddress, portLabel, portsOfInspect, portsOfSummary } from '../../../src/model/ports';
import { toContainerRecord } from '../../../src/model/records';
import { PortFacts } from '../../../src/ports/facts';
import { containerSummary } from '../model/support';
import { containerPortDecoration, portPickItems, presentPort, presentPortGroup } from '../../../src/ports/portRows';

const published = portsOfSummary([
  { IP: '0.0.0.0', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
  { IP: '::', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
  { IP: '0.0.0.0', PrivatePort: 53, PublicPort: 5353, Type: 'udp' },
]);
const bindings = portsOfInspect({
  State: { Running: false, Status: 'created', ExitCode: 0, StartedAt: '', FinishedAt: '' },
  HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '18080' }], '81/tcp': [{ HostIp: '', HostPort: '' }] } },
});

void test('a published TCP port row: its label, its address, openable', () => {
  const row = presentPort(published.find((port) => port.protocol === 'tcp')!);
  assert.equal(row.label, '0.0.0.0:8080 → 80/tcp');
  assert.equal(row.description, 'http://localhost:8080');
  assert.equal(row.contextValue, 'berth:port:open');
  assert.match(row.tooltip, /Address: http:\/\/localhost:8080/);
});

void test('a UDP port row and a binding with a random host port say why there is nothing to open', () => {
  const udp = presentPort(published.find((port) => port.protocol === 'udp')!);
  assert.equal(udp.contextValue, 'berth:port:other');
  assert.match(udp.description, /UDP: no address to open/);
  const random = presentPort(bindings.find((port) => port.hostPort === undefined)!);
  assert.equal(random.contextValue, 'berth:port:other');
  assert.match(random.description, /random host port when the container starts/);
});

void test('a binding of a container that is not running: its address, marked not yet published', () => {
  const row = presentPort(bindings[0]!);
  assert.equal(row.label, '127.0.0.1:18080 → 80/tcp');
  assert.equal(row.description, 'http://localhost:18080 · not yet published');
  assert.equal(row.contextValue, 'berth:port:unpublished');
  assert.equal(presentPortGroup(bindings).description, '2 · not yet published');
  assert.equal(presentPortGroup(published).description, '2');
});

void test('the container row: `:ports` when a port has an address, the bindings in the tooltip only when not running', () => {
  assert.deepEqual(containerPortDecoration(published, true), { contextSuffix: ':ports' });
  const stopped = containerPortDecoration(bindings, false);
  assert.equal(stopped.contextSuffix, ':ports');
  assert.match(stopped.tooltip ?? '', /Ports \(published when it starts\): 127\\\.0\\\.0\\\.1:18080 → 80\/tcp, 0\\\.0\\\.0\\\.0:\\\(random\\\) → 81\/tcp/);
  assert.deepEqual(containerPortDecoration(published.filter((port) => port.protocol === 'udp'), true), {}, 'UDP only: nothing to open or copy');
});

void test('the pick offers only ports with an address', () => {
  assert.deepEqual(portPickItems([...published, ...bindings]).map((item) => item.label), ['http://localhost:8080', 'http://localhost:18080']);
});

void test('network none: its bindings are never published, the rows and the refusal say why, and a run with -p is warned', () => {
  const inspect = {
    State: { Running: true, Status: 'running' as const, ExitCode: 0, StartedAt: '2026-01-01T00:00:00Z', FinishedAt: '' },
    HostConfig: { NetworkMode: 'none', PortBindings: { '80/tcp': [{ HostIp: '', HostPort: '8080' }] } },
    NetworkSettings: { Ports: {} },
  };
  const ports = portsOfInspect(inspect);
  assert.deepEqual(ports.map((port) => [portLabel(port), port.dropped, portAddress(port)]), [['0.0.0.0:8080 → 80/tcp', true, undefined]]);
  assert.deepEqual(openablePorts(ports), []);
  const group = presentPortGroup(ports);
  assert.equal(group.description, '1 · dropped by network none');
  const row = presentPort(ports[0]!);
  assert.equal(row.description, 'never published: network none drops published ports; run the container on another network to reach it');
  const decoration = containerPortDecoration(ports, true);
  assert.equal(decoration.tooltip, 'Ports (never published: network none drops them): 0\\.0\\.0\\.0:8080 → 80/tcp');
  assert.equal(decoration.contextSuffix, undefined, 'no Open in Browser on the row');
  assert.equal(onNetworkNone({ NetworkSettings: { Networks: { none: {} } } }), true, 'a listing row on network none');
  assert.equal(onNetworkNone({ NetworkSettings: { Networks: { bridge: {} } } }), false);
  assert.match(droppedPortsWarning('none', ['8080:80']) ?? '', /^Network none drops published ports: 8080:80 will not be reachable from the host\./);
  assert.equal(droppedPortsWarning('bridge', ['8080:80']), undefined);
  assert.equal(droppedPortsWarning('none', []), undefined);
});

void test('a created or stopped container on network none: its bindings read as dropped, never "not yet published"', () => {
  const states = [
    { Running: false, Status: 'created' as const, ExitCode: 0, StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z' },
    { Running: false, Status: 'exited' as const, ExitCode: 137, StartedAt: '2026-01-01T00:00:00Z', FinishedAt: '2026-01-01T00:01:00Z' },
  ];
  for (const State of states) {
    const ports = portsOfInspect({
      State,
      HostConfig: { NetworkMode: 'none', PortBindings: { '80/tcp': [{ HostIp: '', HostPort: '8080' }], '3000/tcp': [{ HostIp: '', HostPort: '' }] } },
      NetworkSettings: { Ports: null },
    });
    assert.deepEqual(ports.map((port) => [portLabel(port), port.dropped, portAddress(port)]), [
      ['0.0.0.0:8080 → 80/tcp', true, undefined],
      ['0.0.0.0:(random) → 3000/tcp', true, undefined],
    ], State.Status);
    assert.equal(presentPortGroup(ports).description, '2 · dropped by network none', State.Status);
    assert.deepEqual(ports.map((port) => presentPort(port).contextValue), ['berth:port:other', 'berth:port:other'], State.Status);
    assert.ok(ports.every((port) => presentPort(port).description.startsWith('never published: network none drops published ports')), State.Status);
    const decoration = containerPortDecoration(ports, false);
    assert.match(decoration.tooltip ?? '', /^Ports \(never published: network none drops them\): /, State.Status);
    assert.equal(decoration.contextSuffix, undefined, `${State.Status}: no Open in Browser on the row`);
    assert.deepEqual(portPickItems(ports), [], State.Status);
  }
});

void test('a running container on network none has no ports from its listing: they are read by inspect', () => {
  const facts = new PortFacts({ log: { warn: () => undefined } } as unknown as ConstructorParameters<typeof PortFacts>[0]);
  const summary = containerSummary('e'.repeat(64), 'offline', { State: 'running', Ports: [], NetworkSettings: { Networks: { none: {} } } });
  assert.equal(facts.known(toContainerRecord(summary)), undefined, 'unknown until inspected, not "no ports"');
  const bridged = containerSummary('f'.repeat(64), 'online', { State: 'running', Ports: [], NetworkSettings: { Networks: { bridge: {} } } });
  assert.deepEqual(facts.known(toContainerRecord(bridged)), []);
});
