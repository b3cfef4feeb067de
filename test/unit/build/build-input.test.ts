/** The vscode-free parts of builds and run options: Dockerfile reading, tag and args input, docker's -p/-v/--restart syntax. */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BuildTranscript, formatBuildArgs, isDockerfileName, parseBuildArgs, suggestedTag } from '../../../src/build/buildInput';
import { baseImages, buildKitOnlySyntax, dockerfileStages, failureLine, parseDockerignore, parsePortSpec, parseRestartPolicy, parseVolumeSpec } from '../../../src/engine';
import { formatRunOptions, parseRunOptionsText, profilesFor, typedOptionsWarning } from '../../../src/images/runOptionsText';
import { buildRow } from '../../engine/build/bad-input-build-cases';

void describe('Dockerfile reading', () => {
  const text = 'ARG BASE=alpine:3\n# comment\nFROM ${BASE} AS build\nRUN make \\\n  all\nFROM --platform=linux/amd64 build AS Final\nFROM scratch\n';
  void it('stages with their names and lines, ARGs substituted', () => {
    assert.deepEqual(dockerfileStages(text), [
      { image: 'alpine:3', name: 'build', line: 3 },
      { image: 'build', name: 'final', line: 6 },
      { image: 'scratch', name: undefined, line: 7 },
    ]);
    assert.equal(dockerfileStages(text, { BASE: 'busybox:1' })[0]?.image, 'busybox:1');
  });
  void it('base images leave out earlier stages and scratch', () => {
    assert.deepEqual(baseImages(text), ['alpine:3']);
  });
  void it('BuildKit-only syntax is named', () => {
    assert.equal(buildKitOnlySyntax('FROM a\nRUN --mount=type=cache,target=/c make\n'), '`RUN --mount`');
    assert.equal(buildKitOnlySyntax('# syntax=docker/dockerfile:1\nFROM a\n'), 'a `# syntax=` line');
    assert.equal(buildKitOnlySyntax('FROM a\nRUN <<EOF\necho\nEOF\n'), 'a heredoc (`<<EOF`)');
    assert.equal(buildKitOnlySyntax('FROM a\nRUN make\n'), undefined);
  });
  void it('a failing step points at its instruction line; a parse error at its own line', () => {
    assert.equal(failureLine(text, 'returned a non-zero code: 2', 'Step 3/5 : RUN make all'), 4);
    assert.equal(failureLine(text, 'Dockerfile parse error line 9: unknown instruction: FOO', undefined), 9);
    assert.equal(failureLine(text, 'anything', undefined), undefined);
  });
  void it('.dockerignore lines are cleaned as docker reads them', () => {
    assert.deepEqual(parseDockerignore('# c\n\n  /docs/  \n!./src//main.go\na/../b\n'), ['docs', '!src/main.go', 'b']);
  });
});

void describe('Build Image input', () => {
  void it('recognizes Dockerfile names', () => {
    for (const name of ['Dockerfile', 'dockerfile', 'app.Dockerfile', 'Dockerfile.dev']) assert.ok(isDockerfileName(name), name);
    for (const name of ['Dockerfile2', 'notes.txt', 'docker-compose.yml']) assert.ok(!isDockerfileName(name), name);
  });
  void it('suggests a valid tag from the folder', () => {
    assert.equal(suggestedTag('/work/My App/Dockerfile'), 'my-app:latest');
    assert.equal(suggestedTag('/__/Dockerfile'), 'app:latest');
  });
  void it('reads build args and writes them back', () => {
    const args = parseBuildArgs('A=1 "B=two words" C=');
    assert.deepEqual(args, { A: '1', B: 'two words', C: '' });
    assert.deepEqual(parseBuildArgs(formatBuildArgs(args)), args);
    assert.throws(() => parseBuildArgs('NOEQUALS'), /"NOEQUALS" is not KEY=VALUE/);
  });
  void it('sums pulled layers into one line and shows failures in red', () => {
    const transcript = new BuildTranscript();
    assert.equal(transcript.render({ stream: 'Step 1/2 : FROM x\n' }), 'Step 1/2 : FROM x\r\n');
    assert.match(transcript.render({ status: 'Downloading', id: 'abc', progressDetail: { current: 5, total: 10 } }), /Pulling 1 layer: \d+% \(0 done\)/);
    assert.equal(transcript.failure('bad'), '\r\n\x1b[31mbad\x1b[0m\r\n');
  });
});

void describe('run options syntax', () => {
  void it('ports as docker reads them', () => {
    assert.deepEqual(parsePortSpec('8080:80'), { hostIp: '', hostPort: '8080', containerPort: 80, protocol: 'tcp' });
    assert.deepEqual(parsePortSpec('127.0.0.1:8080:80/udp'), { hostIp: '127.0.0.1', hostPort: '8080', containerPort: 80, protocol: 'udp' });
    assert.deepEqual(parsePortSpec('127.0.0.1::80'), { hostIp: '127.0.0.1', hostPort: '', containerPort: 80, protocol: 'tcp' });
    assert.deepEqual(parsePortSpec('[::1]:8080:80'), { hostIp: '::1', hostPort: '8080', containerPort: 80, protocol: 'tcp' });
    assert.throws(() => parsePortSpec('70000:80'), /^EngineError: port 70000 is out of range/);
    assert.throws(() => parsePortSpec('8080:80/icmp'), /invalid protocol "icmp"/);
    assert.throws(() => parsePortSpec('8000-8010:80'), /port ranges/);
  });
  void it('volumes: bind, named, anonymous', () => {
    assert.deepEqual(parseVolumeSpec('./src:/src:ro', '/w'), { kind: 'bind', source: '/w/src', target: '/src', readOnly: true });
    assert.deepEqual(parseVolumeSpec('data:/data', '/w'), { kind: 'volume', source: 'data', target: '/data', readOnly: false });
    assert.equal(parseVolumeSpec('/cache', '/w').kind, 'anonymous');
    assert.throws(() => parseVolumeSpec('data:relative', '/w'), /must be absolute/);
  });
  void it('volumes: ~ is the home folder, as a shell would have expanded it', () => {
    assert.deepEqual(parseVolumeSpec('~/.cache:/x', '/w'), { kind: 'bind', source: join(homedir(), '.cache'), target: '/x', readOnly: false });
    assert.equal(parseVolumeSpec('~:/home-copy:ro', '/w').source, homedir());
    assert.equal(parseVolumeSpec('./~/x:/x', '/w').source, '/w/~/x', 'a ~ after ./ is a folder of that name');
    const row = buildRow('run-volume-other-home');
    assert.throws(() => parseVolumeSpec(`${row.input}`, '/w'), (error: Error) => error.message === row.message);
  });
  void it('restart policies', () => {
    assert.deepEqual(parseRestartPolicy('on-failure:3'), { Name: 'on-failure', MaximumRetryCount: 3 });
    assert.throws(() => parseRestartPolicy('always:3'), /only on-failure takes a retry count/);
  });
  void it('the options box refuses an empty variable name as it is typed, and a ~name mount', () => {
    const env = buildRow('run-env-empty-key');
    assert.throws(() => parseRunOptionsText(env.input, '/w'), (error: Error) => error.message === env.message);
    assert.throws(() => parseRunOptionsText('-p 80 -e "" ', '/w'), /invalid environment variable ""/);
    const volume = buildRow('run-volume-other-home');
    assert.throws(() => parseRunOptionsText(`-v ${volume.input}`, '/w'), (error: Error) => error.message === volume.message);
    assert.deepEqual(parseRunOptionsText('-e KEY -e A=b=c', '/w').env, ['KEY', 'A=b=c']);
  });
  void it('the options box warns as typed, without refusing, when -p comes with --network none', () => {
    const row = buildRow('run-ports-network-none-typed');
    const warning = typedOptionsWarning(parseRunOptionsText(row.input, '/w'));
    assert.equal(`A warning under the box, the run still allowed: ${warning ?? '(none)'}`, row.message);
    assert.equal(typedOptionsWarning(parseRunOptionsText('-p 8080:80 --network bridge', '/w')), undefined);
    assert.equal(typedOptionsWarning(parseRunOptionsText('--network none', '/w')), undefined);
  });
  void it('the options step reads docker run flags and writes them back', () => {
    const options = parseRunOptionsText('-p 8080:80 -e "A=two words" --env-file .env -v ./src:/src -w /src --restart=always -l team=a', '/w');
    assert.deepEqual(options, { ports: ['8080:80'], env: ['A=two words'], envFiles: ['.env'], volumes: ['./src:/src'], workdir: '/src', restart: 'always', labels: { team: 'a' } });
    assert.deepEqual(parseRunOptionsText(formatRunOptions(options), '/w'), options);
    assert.throws(() => parseRunOptionsText('--privileged', '/w'), /"--privileged" is not a run option here/);
    assert.throws(() => parseRunOptionsText('-p', '/w'), /-p needs a value/);
  });
  void it('profiles apply to their repository or to every image', () => {
    const profiles = [{ name: 'all' }, { name: 'web', image: 'my-app' }, { name: 'other', image: 'db' }];
    assert.deepEqual(profilesFor(profiles, 'my-app:1.2').map((profile) => profile.name), ['all', 'web']);
  });
});
