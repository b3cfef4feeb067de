// The Ports rows' words and context values, and what a container row gets from them (vscode-free view-model).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portsOfInspect, portsOfSummary } from '../../../src/model/ports';
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
