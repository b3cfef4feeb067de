// Build Image… in the real extension host, on the engine of this pass (dockerd's classic builder, or Podman's
// Buildah): the build through the command, its args and target, the new image in the model; a failing RUN rejecting
// with its exit status and step; a context above berth.build.contextWarningMB not sent when the user declines.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isEngineError } from '../../../src/engine';
import { eventually, setBerthSetting, snapshot, useConnectedSuite } from '../support/fixtures';

describe('Build Image', () => {
  const folder = mkdtempSync(join(tmpdir(), 'berth-it-build-'));
  const { engines, engine, client, containers } = useConnectedSuite(async () => {
    rmSync(folder, { recursive: true, force: true });
    await setBerthSetting('build.contextWarningMB', undefined);
  });
  const repository = `berth-it/built-${Date.now().toString(36)}`;

  function context(name: string, dockerfile: string, files: Record<string, string> = {}): string {
    const dir = join(folder, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'Dockerfile'), dockerfile);
    for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
    return join(dir, 'Dockerfile');
  }

  it('builds with args and a target, and the model lists the new image', async () => {
    const dockerfile = context('app', `FROM ${engines.image} AS base\nARG FLAVOUR=plain\nLABEL flavour=$FLAVOUR stage=base\nCOPY hello.txt /hello.txt\nFROM base AS final\nLABEL stage=final\n`, {
      'hello.txt': 'hello',
    });
    const tag = containers.trackImage(`${repository}:args`);
    const result = await vscode.commands.executeCommand<{ imageId?: string; tag: string } | undefined>('berth.buildImage', {
      dockerfile,
      tag,
      buildArgs: { FLAVOUR: 'salted' },
      target: 'base',
    });
    assert.equal(result?.tag, tag);
    const inspected = await client.images.inspect(tag);
    assert.equal(inspected.Config?.Labels?.flavour, 'salted');
    assert.equal(inspected.Config?.Labels?.stage, 'base');
    await eventually(`${tag} in the model`, async () => ((await snapshot()).images.some((image) => image.tags.some((each) => engine.sameReference(each, tag))) ? true : undefined));
  });

  it('a failing RUN rejects with its exit status and the step', async () => {
    const dockerfile = context('failing', `FROM ${engines.image}\nRUN echo failing && exit 3\n`);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('berth.buildImage', { dockerfile, tag: containers.trackImage(`${repository}:failing`) })),
      (error: unknown) => error instanceof Error && /exit 3/.test(error.message) && /non-zero|exit status|3/.test(error.message),
    );
    await assert.rejects(client.images.inspect(`${repository}:failing`), (error: unknown) => isEngineError(error, 'not-found'));
  });

  it('a context above berth.build.contextWarningMB is not sent when the user declines', async () => {
    // In the workspace's settings, as setBerthSetting writes every setting but the engine hosts: a user-level write
    // makes the workbench re-send the configuration without berth.engine.host's user value (see codeServer.ts).
    await setBerthSetting('build.contextWarningMB', 1);
    const dockerfile = context('large', `FROM ${engines.image}\nCOPY . /ctx\n`, { 'big.bin': 'x'.repeat(2 * 1024 * 1024) });
    const tag = containers.trackImage(`${repository}:large`);
    const declined = await vscode.commands.executeCommand<unknown>('berth.buildImage', { dockerfile, tag, confirmLargeContext: false });
    assert.equal(declined, undefined);
    await assert.rejects(client.images.inspect(tag), (error: unknown) => isEngineError(error, 'not-found'));
    const accepted = await vscode.commands.executeCommand<{ tag: string } | undefined>('berth.buildImage', { dockerfile, tag, confirmLargeContext: true });
    assert.equal(accepted?.tag, tag);
    await client.images.inspect(tag);
  });
});
