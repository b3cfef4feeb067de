/**
 * A container's listing row built from its inspect, against what `GET /containers/json` gave for the same
 * containers. The fixtures were captured from the private test engines (Docker Engine 20.10.24, API 1.41;
 * Podman 4.3.1, compat API 1.41): a running, an exited (`exit 3`), a created and a paused busybox container,
 * listed about 2 s after they started; the inspects are trimmed to the fields the mapping reads.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import type { ContainerInspect, ContainerSummary } from '../../../src/engine';
import { humanDuration } from '../../../src/common/format';
import { containerSummaryFromInspect, dockerCommand, statusText } from '../../../src/model/containerInspect';

interface Capture {
  readonly inspect: ContainerInspect;
  readonly listed: ContainerSummary;
}

/** An instant inside the listing's "2 seconds" window for every container of the capture. */
const DOCKER_LISTED_AT = Date.parse('2026-11-22T07:09:18.700Z');
const PODMAN_LISTED_AT = Date.parse('2026-11-22T07:09:21.900Z');

const DOCKER: readonly Capture[] = [
  {
    inspect: {"Id": "cf0d14164edd094c1ec7e4979e544c2432843578646dd239866fdc2037ef17d3", "Name": "/cap-created", "Created": "2026-11-22T07:09:15.787648992Z", "Path": "echo", "Args": ["hi there"], "Image": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "State": {"Status": "created", "Running": false, "Paused": false, "Restarting": false, "ExitCode": 0, "StartedAt": "0001-01-01T00:00:00Z", "FinishedAt": "0001-01-01T00:00:00Z"}, "Config": {"Tty": false, "Cmd": ["echo", "hi there"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-created"}, "Image": "berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "cf0d14164edd094c1ec7e4979e544c2432843578646dd239866fdc2037ef17d3", "Names": ["/cap-created"], "Image": "berth-test/busybox:latest", "ImageID": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "Command": "echo 'hi there'", "Created": 1795331355, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-created"}, "State": "created", "Status": "Created", "Mounts": []},
  },
  {
    inspect: {"Id": "8f368bc78d3c699d202f86fdc2383503d165d5a39ed9298336c66c032277df45", "Name": "/cap-exited", "Created": "2026-11-22T07:09:15.6579084Z", "Path": "sh", "Args": ["-c", "exit 3"], "Image": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "State": {"Status": "exited", "Running": false, "Paused": false, "Restarting": false, "ExitCode": 3, "StartedAt": "2026-11-22T07:09:16.390029236Z", "FinishedAt": "2026-11-22T07:09:16.39186101Z"}, "Config": {"Tty": false, "Cmd": ["sh", "-c", "exit 3"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-exited"}, "Image": "berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "8f368bc78d3c699d202f86fdc2383503d165d5a39ed9298336c66c032277df45", "Names": ["/cap-exited"], "Image": "berth-test/busybox:latest", "ImageID": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "Command": "sh -c 'exit 3'", "Created": 1795331355, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-exited"}, "State": "exited", "Status": "Exited (3) 2 seconds ago", "Mounts": []},
  },
  {
    inspect: {"Id": "aee6bcdf2d7c0976c9a9cf75477408c15d78a4adf117250cbfcca71f56625098", "Name": "/cap-paused", "Created": "2026-11-22T07:09:15.912805789Z", "Path": "sleep", "Args": ["300"], "Image": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "State": {"Status": "paused", "Running": true, "Paused": true, "Restarting": false, "ExitCode": 0, "StartedAt": "2026-11-22T07:09:16.576693393Z", "FinishedAt": "0001-01-01T00:00:00Z"}, "Config": {"Tty": false, "Cmd": ["sleep", "300"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-paused"}, "Image": "berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "aee6bcdf2d7c0976c9a9cf75477408c15d78a4adf117250cbfcca71f56625098", "Names": ["/cap-paused"], "Image": "berth-test/busybox:latest", "ImageID": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "Command": "sleep 300", "Created": 1795331355, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-paused"}, "State": "paused", "Status": "Up 2 seconds (Paused)", "Mounts": []},
  },
  {
    inspect: {"Id": "91d5990eaf0a28994a06ed19f66756b7547e57223d6ffbf7381a28e017929684", "Name": "/cap-running", "Created": "2026-11-22T07:09:15.523807357Z", "Path": "sleep", "Args": ["300"], "Image": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "State": {"Status": "running", "Running": true, "Paused": false, "Restarting": false, "ExitCode": 0, "StartedAt": "2026-11-22T07:09:16.202263476Z", "FinishedAt": "0001-01-01T00:00:00Z"}, "Config": {"Tty": false, "Cmd": ["sleep", "300"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-running"}, "Image": "berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "91d5990eaf0a28994a06ed19f66756b7547e57223d6ffbf7381a28e017929684", "Names": ["/cap-running"], "Image": "berth-test/busybox:latest", "ImageID": "sha256:98f7f08f549967dc1e87a4cbc87e0a7b35def4c15416eee19b9bec4cea12be05", "Command": "sleep 300", "Created": 1795331355, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-running"}, "State": "running", "Status": "Up 2 seconds", "Mounts": []},
  },
];

const PODMAN: readonly Capture[] = [
  {
    inspect: {"Id": "c1591a298a1ef2a92ee2682bb8ddae3e11b5b51615cd530b97b63642abd1a139", "Name": "/cap-created", "Created": "2026-11-22T07:09:19.198402521Z", "Path": "echo", "Args": ["hi there"], "Image": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "State": {"Status": "created", "Running": false, "Paused": false, "Restarting": false, "ExitCode": 0, "StartedAt": "0001-01-01T00:00:00Z", "FinishedAt": "0001-01-01T00:00:00Z", "Health": {"Status": ""}}, "Config": {"Tty": false, "Cmd": ["echo", "hi there"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-created"}, "Image": "localhost/berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "c1591a298a1ef2a92ee2682bb8ddae3e11b5b51615cd530b97b63642abd1a139", "Names": ["/cap-created"], "Image": "localhost/berth-test/busybox:latest", "ImageID": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "Command": "echo hi there", "Created": 1795331359, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-created"}, "State": "created", "Status": "Created", "Mounts": []},
  },
  {
    inspect: {"Id": "097d5a20f00611acbb7751d066897abb1205048378c8e459fc80061f6960627a", "Name": "/cap-exited", "Created": "2026-11-22T07:09:19.061929849Z", "Path": "sh", "Args": ["-c", "exit 3"], "Image": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "State": {"Status": "exited", "Running": false, "Paused": false, "Restarting": false, "ExitCode": 3, "StartedAt": "2026-11-22T07:09:19.674013366Z", "FinishedAt": "2026-11-22T07:09:19.671040666Z", "Health": {"Status": ""}}, "Config": {"Tty": false, "Cmd": ["sh", "-c", "exit 3"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-exited"}, "Image": "localhost/berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "097d5a20f00611acbb7751d066897abb1205048378c8e459fc80061f6960627a", "Names": ["/cap-exited"], "Image": "localhost/berth-test/busybox:latest", "ImageID": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "Command": "sh -c exit 3", "Created": 1795331359, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-exited"}, "State": "exited", "Status": "Exited (3) 2 seconds ago", "Mounts": []},
  },
  {
    inspect: {"Id": "6b399512dd5bafdde632105768d8b33a8ced78a094764224a502a38afae42e79", "Name": "/cap-paused", "Created": "2026-11-22T07:09:19.331783591Z", "Path": "sleep", "Args": ["300"], "Image": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "State": {"Status": "paused", "Running": true, "Paused": true, "Restarting": false, "ExitCode": 0, "StartedAt": "2026-11-22T07:09:19.751596411Z", "FinishedAt": "0001-01-01T00:00:00Z", "Health": {"Status": ""}}, "Config": {"Tty": false, "Cmd": ["sleep", "300"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-paused"}, "Image": "localhost/berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "6b399512dd5bafdde632105768d8b33a8ced78a094764224a502a38afae42e79", "Names": ["/cap-paused"], "Image": "localhost/berth-test/busybox:latest", "ImageID": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "Command": "sleep 300", "Created": 1795331359, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-paused"}, "State": "paused", "Status": "Up 2 seconds (Paused)", "Mounts": []},
  },
  {
    inspect: {"Id": "25ad86db0aed7520421eec70ce9b1a84cde7c787f5757594c974ef0e42b901aa", "Name": "/cap-running", "Created": "2026-11-22T07:09:18.942397655Z", "Path": "sleep", "Args": ["300"], "Image": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "State": {"Status": "running", "Running": true, "Paused": false, "Restarting": false, "ExitCode": 0, "StartedAt": "2026-11-22T07:09:19.58527808Z", "FinishedAt": "0001-01-01T00:00:00Z", "Health": {"Status": ""}}, "Config": {"Tty": false, "Cmd": ["sleep", "300"], "Env": null, "Labels": {"berth.test": "1", "role": "cap-running"}, "Image": "localhost/berth-test/busybox:latest"}, "HostConfig": {}, "NetworkSettings": {"Ports": {}}, "Mounts": []},
    listed: {"Id": "25ad86db0aed7520421eec70ce9b1a84cde7c787f5757594c974ef0e42b901aa", "Names": ["/cap-running"], "Image": "localhost/berth-test/busybox:latest", "ImageID": "sha256:d63c2de00e25043b047f5e07f85f69d1c3d61ab2db78127a199c0dd215ca4de4", "Command": "sleep 300", "Created": 1795331358, "Ports": [], "Labels": {"berth.test": "1", "role": "cap-running"}, "State": "running", "Status": "Up 2 seconds", "Mounts": []},
  },
];

for (const [engine, captures, listedAt] of [
  ['Docker 20.10', DOCKER, DOCKER_LISTED_AT],
  ['Podman 4.3', PODMAN, PODMAN_LISTED_AT],
] as const) {
  void test(`${engine}: a row rebuilt from the inspect equals the listed row, given the listed one before`, () => {
    assert.equal(captures.length, 4);
    for (const { inspect, listed } of captures) {
      assert.deepEqual(containerSummaryFromInspect(inspect, listedAt, listed), listed, inspect.Name);
    }
  });
}

void test('Docker 20.10: a container seen for the first time gets every listed field, the command quoted as Docker does', () => {
  for (const { inspect, listed } of DOCKER) {
    assert.deepEqual(containerSummaryFromInspect(inspect, DOCKER_LISTED_AT), listed, inspect.Name);
  }
});

void test('Podman 4.3: a new container differs from its listing only in the quoting of an argument with a space', () => {
  for (const { inspect, listed } of PODMAN) {
    const built = containerSummaryFromInspect(inspect, PODMAN_LISTED_AT);
    assert.deepEqual({ ...built, Command: listed.Command }, listed, inspect.Name);
  }
  const created = PODMAN.find((capture) => capture.listed.State === 'created');
  assert.equal(created?.listed.Command, 'echo hi there');
  assert.equal(created && containerSummaryFromInspect(created.inspect, PODMAN_LISTED_AT).Command, "echo 'hi there'");
});

void test('the status text follows the state: up, paused, health, exited with its code, dead, removing', () => {
  const byState = new Map(DOCKER.map(({ inspect }) => [inspect.State.Status, inspect]));
  const running = byState.get('running');
  const exited = byState.get('exited');
  assert.ok(running && exited);
  const startedAt = Date.parse(running.State.StartedAt);
  assert.equal(statusText(running.State, startedAt + 300), 'Up Less than a second');
  assert.equal(statusText(running.State, startedAt + 5 * 60_000 + 10), 'Up 5 minutes');
  assert.equal(statusText({ ...running.State, Paused: true, Status: 'paused' }, startedAt + 61_000), 'Up About a minute (Paused)');
  assert.equal(statusText({ ...running.State, Health: { Status: 'starting' } }, startedAt + 3000), 'Up 3 seconds (health: starting)');
  assert.equal(statusText({ ...running.State, Health: { Status: 'unhealthy' } }, startedAt + 3000), 'Up 3 seconds (unhealthy)');
  const finishedAt = Date.parse(exited.State.FinishedAt);
  assert.equal(statusText(exited.State, finishedAt + 2 * 60 * 60_000), 'Exited (3) 2 hours ago');
  assert.equal(statusText({ ...exited.State, Status: 'dead' }, finishedAt), 'Dead');
  assert.equal(statusText({ ...exited.State, Status: 'removing' }, finishedAt), 'Removal In Progress');
});

void test('durations are worded as the engines word them', () => {
  const hour = 60 * 60_000;
  assert.equal(humanDuration(999), 'Less than a second');
  assert.equal(humanDuration(1000), '1 second');
  assert.equal(humanDuration(59_999), '59 seconds');
  assert.equal(humanDuration(90_000), 'About a minute');
  assert.equal(humanDuration(59 * 60_000), '59 minutes');
  assert.equal(humanDuration(hour + 29 * 60_000), 'About an hour');
  assert.equal(humanDuration(hour + 31 * 60_000), '2 hours');
  assert.equal(humanDuration(47 * hour), '47 hours');
  assert.equal(humanDuration(48 * hour), '2 days');
  assert.equal(humanDuration(14 * 24 * hour), '2 weeks');
  assert.equal(humanDuration(60 * 24 * hour), '2 months');
  assert.equal(humanDuration(2 * 365 * 24 * hour), '2 years');
});

void test('published and exposed ports become listing entries; the command quotes arguments holding spaces', () => {
  const base = DOCKER[0];
  assert.ok(base);
  const inspect: ContainerInspect = {
    ...base.inspect,
    NetworkSettings: { Ports: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }], '53/udp': null } },
  };
  assert.deepEqual(containerSummaryFromInspect(inspect, DOCKER_LISTED_AT).Ports, [
    { IP: '127.0.0.1', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
    { PrivatePort: 53, Type: 'udp' },
  ]);
  assert.equal(dockerCommand('sh', ['-c', 'exit 3']), "sh -c 'exit 3'");
  assert.equal(dockerCommand('/bin/sh', []), '/bin/sh');
});

void test('an image whose tag moved keeps the name it was listed under; a new container takes its configured one', () => {
  const capture = DOCKER[0];
  assert.ok(capture);
  const listedUnderId = { ...capture.listed, Image: capture.listed.ImageID };
  assert.equal(containerSummaryFromInspect(capture.inspect, DOCKER_LISTED_AT, listedUnderId).Image, capture.listed.ImageID);
  assert.equal(containerSummaryFromInspect(capture.inspect, DOCKER_LISTED_AT).Image, 'berth-test/busybox:latest');
});
