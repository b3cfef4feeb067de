/**
 * Add Docker Files' generator, without VS Code: what each kind of project is detected from, what is rendered for it,
 * and (fast-check) that whatever a folder holds, the files parse: compose.yaml with `yaml`, the Dockerfile with FROM
 * as its first instruction and no diagnostic from dockerfile-utils, the validator the bundled Dockerfile language
 * server runs (the integration suite checks the server itself in the extension host).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import fc from 'fast-check';
import { parse } from 'yaml';
import { detect, platformChoices, PLATFORMS, serviceName, type Platform, type ProjectFiles } from '../../../src/scaffold/detect';
import { readFailureMessage, writeFailureMessage } from '../../../src/scaffold/messages';
import { parsePort, render, validatePort, type RenderedFile } from '../../../src/scaffold/render';

const FIXTURES: Readonly<Record<Exclude<Platform, 'generic'>, ProjectFiles>> = {
  node: {
    'package.json': JSON.stringify({ name: '@team/Web-Shop', main: 'src/server.js', scripts: { start: 'node src/server.js' }, engines: { node: '>=18.17 <23' } }),
    'package-lock.json': '',
  },
  python: { 'pyproject.toml': '[project]\nname = "api"\nrequires-python = ">=3.11"\n', 'requirements.txt': 'flask\n', 'main.py': '' },
  go: { 'go.mod': 'module github.com/acme/ship-api\n\ngo 1.22.3\n', 'go.sum': '', 'main.go': '' },
  java: { 'pom.xml': '<project><properties><java.version>17</java.version></properties></project>', src: '' },
  dotnet: { 'Shop.Api.csproj': '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net9.0</TargetFramework><AssemblyName>ShopApi</AssemblyName></PropertyGroup></Project>' },
};

function file(files: RenderedFile[], path: string): string {
  const found = files.find((each) => each.path === path);
  assert.ok(found, `${path} rendered`);
  return found.text;
}

/** The Dockerfile's instructions, comments and blank lines left out. */
function instructions(dockerfile: string): string[] {
  return dockerfile.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

function assertValidScaffold(files: RenderedFile[], service: string, port: number | undefined): void {
  assert.deepEqual(files.map((each) => each.path), ['Dockerfile', '.dockerignore', 'compose.yaml']);
  const dockerfile = file(files, 'Dockerfile');
  assert.match(instructions(dockerfile)[0] ?? '', /^FROM \S+/, dockerfile);
  assert.deepEqual(validate(dockerfile).map((diagnostic) => `${diagnostic.range.start.line + 1}: ${diagnostic.message}`), [], dockerfile);
  const compose = parse(file(files, 'compose.yaml')) as { services: Record<string, { build: { context: string; dockerfile: string }; ports?: string[] }> };
  assert.deepEqual(Object.keys(compose.services), [service]);
  assert.deepEqual(compose.services[service]?.build, { context: '.', dockerfile: 'Dockerfile' });
  assert.deepEqual(compose.services[service]?.ports, port === undefined ? undefined : [`${port}:${port}`]);
  if (port === undefined) assert.doesNotMatch(dockerfile, /^EXPOSE/m);
  else assert.match(dockerfile, new RegExp(`^EXPOSE ${port}$`, 'm'));
}

void describe('scaffold: detection', () => {
  void it('recognises each kind of project and reads its facts', () => {
    assert.deepEqual(detect(FIXTURES.node, 'folder'), {
      platform: 'node',
      found: ['node'],
      facts: { name: 'web-shop', node: { startScript: true, version: '18', main: 'src/server.js', lockfile: 'npm' } },
    });
    assert.deepEqual(detect(FIXTURES.python, 'api-folder').facts, { name: 'api-folder', python: { requirements: true, pyproject: true, version: '3.11', entry: 'main.py' } });
    assert.deepEqual(detect(FIXTURES.go, 'x').facts, { name: 'ship-api', go: { module: 'github.com/acme/ship-api', version: '1.22' } });
    assert.deepEqual(detect(FIXTURES.java, 'inventory').facts, { name: 'inventory', java: { build: 'maven', gradleWrapper: false, version: '17' } });
    assert.deepEqual(detect(FIXTURES.dotnet, 'x').facts, { name: 'shopapi', dotnet: { project: 'Shop.Api.csproj', assembly: 'ShopApi', version: '9.0' } });
    for (const [platform, files] of Object.entries(FIXTURES)) assert.equal(detect(files, 'x').platform, platform);
  });

  void it('Gradle, with and without its wrapper, and its Java version', () => {
    const kts = detect({ 'build.gradle.kts': 'java { toolchain { languageVersion.set(JavaLanguageVersion.of(21)) } }', gradlew: '' }, 'svc');
    assert.deepEqual(kts.facts.java, { build: 'gradle', gradleWrapper: true, version: '21' });
    assert.deepEqual(detect({ 'build.gradle': "sourceCompatibility = '1.8'" }, 'svc').facts.java, { build: 'gradle', gradleWrapper: false, version: '8' });
    assert.match(file(render('java', { facts: kts.facts, port: 8080 }), 'Dockerfile'), /^RUN \.\/gradlew build/m);
  });

  void it('a folder with nothing recognised is generic, named after the folder', () => {
    const detection = detect({ 'README.md': '', 'notes.txt': '' }, 'My Project!');
    assert.deepEqual(detection, { platform: 'generic', found: [], facts: { name: 'my-project' } });
    assert.deepEqual(platformChoices(detection)[0], { platform: 'generic', note: 'nothing recognised in this folder' });
    assert.deepEqual(platformChoices(detection).map((choice) => choice.platform).sort(), [...PLATFORMS].sort());
  });

  void it('several kinds: the compiled service first, the others still offered', () => {
    const detection = detect({ ...FIXTURES.node, ...FIXTURES.go }, 'x');
    assert.equal(detection.platform, 'go');
    assert.deepEqual(detection.found, ['go', 'node']);
    assert.deepEqual(platformChoices(detection).slice(0, 3), [{ platform: 'go', note: 'detected' }, { platform: 'node', note: 'also found' }, { platform: 'python' }]);
  });

  void it('a broken package.json still means Node.js, with npm start and the folder name', () => {
    const detection = detect({ 'package.json': '{ not json' }, 'front');
    assert.deepEqual(detection.facts, { name: 'front', node: { startScript: false } });
    assert.match(file(render('node', { facts: detection.facts, port: 3000 }), 'Dockerfile'), /^CMD \["npm", "start"\]$/m);
  });

  void it('a main that would break out of the JSON form or the context is not used', () => {
    for (const main of ['../x.js', '/abs.js', 'a"b.js', '$HOME/x.js', 'a\\b.js']) {
      const facts = detect({ 'package.json': JSON.stringify({ main }) }, 'x').facts;
      assert.equal(facts.node?.main, undefined, main);
    }
    assert.equal(detect({ 'package.json': JSON.stringify({ main: './lib/index.js' }) }, 'x').facts.node?.main, 'lib/index.js');
  });

  void it('service names are valid Compose service and image names', () => {
    assert.equal(serviceName('@scope/My_App'), 'my_app');
    assert.equal(serviceName('---'), 'app');
    assert.equal(serviceName('Ünïcode Name'), 'n-code-name');
  });
});

void describe('scaffold: rendering', () => {
  for (const platform of PLATFORMS) {
    void it(`${platform}: a Dockerfile that starts with FROM and has no diagnostic, a .dockerignore, a compose.yaml that parses`, () => {
      const facts = platform === 'generic' ? detect({}, 'plain').facts : detect(FIXTURES[platform], 'x').facts;
      const files = render(platform, { facts, port: 4321 });
      assertValidScaffold(files, facts.name, 4321);
      assert.match(file(files, '.dockerignore'), /^\.git$/m);
      assertValidScaffold(render(platform, { facts, port: undefined }), facts.name, undefined);
    });
  }

  void it('uses the facts: versions, start script, module binary, assembly, Python entry', () => {
    const text = (platform: Exclude<Platform, 'generic'>): string => file(render(platform, { facts: detect(FIXTURES[platform], 'x').facts, port: 8080 }), 'Dockerfile');
    assert.match(text('node'), /^FROM node:18-alpine$[\s\S]*^RUN npm ci --omit=dev$[\s\S]*^CMD \["npm", "start"\]$/m);
    assert.match(text('python'), /^FROM python:3\.11-slim$[\s\S]*requirements\.txt[\s\S]*^CMD \["python", "main\.py"\]$/m);
    assert.match(text('go'), /^FROM golang:1\.22-alpine AS build$[\s\S]*^ENTRYPOINT \["\/usr\/local\/bin\/ship-api"\]$/m);
    assert.match(text('java'), /^FROM maven:3-eclipse-temurin-17 AS build$[\s\S]*^FROM eclipse-temurin:17-jre$/m);
    assert.match(text('dotnet'), /^FROM mcr\.microsoft\.com\/dotnet\/sdk:9\.0 AS build$[\s\S]*^ENTRYPOINT \["dotnet", "ShopApi\.dll"\]$/m);
    const mainOnly = detect({ 'package.json': JSON.stringify({ main: 'app.js' }), 'yarn.lock': '' }, 'x').facts;
    assert.match(file(render('node', { facts: mainOnly, port: 3000 }), 'Dockerfile'), /^RUN corepack enable && yarn install[\s\S]*^CMD \["node", "app\.js"\]$/m);
  });

  void it('a platform the files do not support still renders with its defaults', () => {
    const facts = detect({}, 'empty').facts;
    for (const platform of PLATFORMS) assertValidScaffold(render(platform, { facts, port: 80 }), 'empty', 80);
  });

  void it('whatever the folder holds, the files parse and the Dockerfile lints clean (property)', () => {
    const text = fc.string({ maxLength: 24 });
    const files = fc.record(
      {
        'package.json': fc.oneof(text, fc.record({ name: text, main: text, scripts: fc.record({ start: text }), engines: fc.record({ node: text }) }).map((value) => JSON.stringify(value))),
        'pyproject.toml': text.map((value) => `requires-python = "${value}"\n`),
        'requirements.txt': text,
        'go.mod': fc.tuple(text, text).map(([module, version]) => `module ${module}\ngo ${version}\n`),
        'pom.xml': text.map((value) => `<java.version>${value}</java.version>`),
        'build.gradle': text,
        'App Name.csproj': text.map((value) => `<AssemblyName>${value}</AssemblyName><TargetFramework>net${value}</TargetFramework>`),
        'main.py': fc.constant(''),
      },
      { requiredKeys: [] },
    );
    const platform = fc.constantFrom(...PLATFORMS);
    const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
    fc.assert(
      fc.property(files, text, platform, port, (folderFiles, folderName, chosen, chosenPort) => {
        const detection = detect(folderFiles, folderName);
        assert.match(detection.facts.name, /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/);
        assertValidScaffold(render(chosen, { facts: detection.facts, port: chosenPort }), detection.facts.name, chosenPort);
      }),
      // The counterexample a run once found (a project named "00", which YAML read as the number 0) is always tried.
      { numRuns: 150, examples: [[{ 'package.json': JSON.stringify({ name: '00', main: '', scripts: { start: '' }, engines: { node: '' } }) }, '', 'node', undefined]] },
    );
  });

  void it('a project named like a YAML number, boolean or null keeps that name as its service', () => {
    for (const name of ['00', '1.5', 'true', 'null', '0x1']) {
      const detection = detect({ 'package.json': JSON.stringify({ name }) }, 'folder');
      assert.equal(detection.facts.name, name);
      assertValidScaffold(render('node', { facts: detection.facts, port: 3000 }), name, 3000);
    }
  });
});

void describe('scaffold: input and failures', () => {
  void it('ports: empty means none; anything else must be 1 to 65535', () => {
    assert.equal(validatePort(''), undefined);
    assert.equal(validatePort(' 8080 '), undefined);
    assert.equal(parsePort(' 8080 '), 8080);
    assert.equal(parsePort(''), undefined);
    assert.equal(validatePort('70000'), 'port 70000 is out of range: give a number from 1 to 65535');
    assert.equal(validatePort('0'), 'port 0 is out of range: give a number from 1 to 65535');
    assert.equal(validatePort('http'), '"http" is not a port number: give a number from 1 to 65535, or leave it empty for none');
  });

  void it('a write failure names the file, the system words and code, what to do, and what was kept', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open '/srv/app/compose.yaml'"), { code: 'EACCES' });
    assert.equal(
      writeFailureMessage('/srv/app/compose.yaml', denied, ['Dockerfile', '.dockerignore']),
      'Cannot write compose.yaml in /srv/app: permission denied (EACCES). You may not write in this folder: change its permissions, or choose another folder. Already written and kept: Dockerfile, .dockerignore',
    );
    const readOnly = Object.assign(new Error("EROFS: read-only file system, open '/mnt/Dockerfile'"), { code: 'EROFS' });
    assert.match(writeFailureMessage('/mnt/Dockerfile', readOnly, []), /^Cannot write Dockerfile in \/mnt: read-only file system \(EROFS\)\. .*read-only file system.*\. Nothing was written$/);
    const appeared = Object.assign(new Error("EEXIST: file already exists, open '/srv/app/compose.yaml'"), { code: 'EEXIST' });
    assert.equal(
      writeFailureMessage('/srv/app/compose.yaml', appeared, ['Dockerfile']),
      'Cannot write compose.yaml in /srv/app: file already exists (EEXIST). The file appeared after the question: run the command again to be asked about it. Already written and kept: Dockerfile',
    );
    const missing = Object.assign(new Error("ENOENT: no such file or directory, scandir '/gone'"), { code: 'ENOENT' });
    assert.equal(readFailureMessage('/gone', missing), 'Cannot read the folder /gone: no such file or directory (ENOENT). The folder does not exist: choose another folder');
  });
});
