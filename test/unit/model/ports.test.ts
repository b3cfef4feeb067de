// A container's published ports from the three places the engines give them: the listing's `Ports`, inspect's
// NetworkSettings.Ports (running) and HostConfig.PortBindings (not running: not yet published).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openablePorts, portAddress, portLabel, portsOfInspect, portsOfSummary } from '../../../src/model/ports';

void test('the listing: a port published on 0.0.0.0 and on :: is one port; an exposed-only port is none', () => {
  const ports = portsOfSummary([
    { IP: '::', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
    { IP: '0.0.0.0', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
    { PrivatePort: 443, Type: 'tcp' },
    { IP: '127.0.0.1', PrivatePort: 53, PublicPort: 5353, Type: 'udp' },
  ]);
  assert.deepEqual(ports.map(portLabel), ['127.0.0.1:5353 → 53/udp', '0.0.0.0:8080 → 80/tcp']);
  assert.deepEqual(ports.map(portAddress), [undefined, 'http://localhost:8080'], 'UDP has no browser address');
  assert.ok(ports.every((port) => port.published));
});

void test('addresses: localhost for every address and 127.0.0.1, another host address as is (IPv6 in brackets)', () => {
  const at = (IP: string, PublicPort = 9000): string | undefined => portAddress(portsOfSummary([{ IP, PrivatePort: 80, PublicPort, Type: 'tcp' }])[0]!);
  assert.equal(at('0.0.0.0'), 'http://localhost:9000');
  assert.equal(at('::'), 'http://localhost:9000');
  assert.equal(at('127.0.0.1'), 'http://localhost:9000');
  assert.equal(at('192.168.5.7'), 'http://192.168.5.7:9000');
  assert.equal(at('::1'), 'http://[::1]:9000');
  assert.equal(portLabel(portsOfSummary([{ IP: '::1', PrivatePort: 80, PublicPort: 9000, Type: 'tcp' }])[0]!), '[::1]:9000 → 80/tcp');
  assert.equal(portLabel(portsOfSummary([{ IP: '::', PrivatePort: 80, PublicPort: 9000, Type: 'tcp' }])[0]!), '[::]:9000 → 80/tcp', 'IPv6 only: kept as the engine says');
});

const created = { Running: false, Status: 'created' } as const;
const running = { Running: true, Status: 'running' } as const;

void test('inspect of a running container: NetworkSettings.Ports, both families shown once, unbound entries skipped', () => {
  const ports = portsOfInspect({
    State: { ...running, ExitCode: 0, StartedAt: '', FinishedAt: '' },
    HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '', HostPort: '' }] } },
    NetworkSettings: {
      Ports: {
        '80/tcp': [{ HostIp: '0.0.0.0', HostPort: '49153' }, { HostIp: '::', HostPort: '49153' }],
        '9000/udp': [{ HostIp: '127.0.0.1', HostPort: '9000' }],
        '443/tcp': null,
      },
    },
  });
  assert.deepEqual(ports.map(portLabel), ['0.0.0.0:49153 → 80/tcp', '127.0.0.1:9000 → 9000/udp'], 'the engine-picked port, not the binding');
  assert.ok(ports.every((port) => port.published));
});

void test('inspect of a created container: HostConfig.PortBindings, not yet published; a random host port has no address', () => {
  const ports = portsOfInspect({
    State: { ...created, ExitCode: 0, StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '' },
    HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '', HostPort: '8080' }], '3000/tcp': [{ HostIp: '', HostPort: '' }], '53/udp': [{ HostIp: '::1', HostPort: '5353' }] } },
    NetworkSettings: { Ports: {} },
  });
  assert.deepEqual(ports.map(portLabel), ['[::1]:5353 → 53/udp', '0.0.0.0:8080 → 80/tcp', '0.0.0.0:(random) → 3000/tcp']);
  assert.ok(ports.every((port) => !port.published));
  assert.deepEqual(openablePorts(ports).map(portAddress), ['http://localhost:8080']);
});

void test('inspect without bindings (Podman drops them from a container without a network): no ports', () => {
  const state = { ...created, ExitCode: 0, StartedAt: '', FinishedAt: '' };
  assert.deepEqual(portsOfInspect({ State: state, HostConfig: { PortBindings: {} }, NetworkSettings: { Ports: {} } }), []);
  assert.deepEqual(portsOfInspect({ State: state, HostConfig: {}, NetworkSettings: undefined }), []);
});
