// The logs document (byte-exact, non-ASCII, stderr marked, keeps following) and the interactive shell.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { tarOf } from '../../../src/engine/files';
import { containerSpec } from '../../support/containerSpec';
import { useConnectedSuite, eventually, execOutput, execRunning, modelShowsContainer, uniqueName } from '../support/fixtures';

const KNOWN_LINE = 'héllo wörld ✓ 日本';

async function openLogs(id: string): Promise<vscode.TextDocument> {
  const result = await vscode.commands.executeCommand<{ uri: string }>('berth.openLogsInEditor', id);
  assert.ok(result?.uri.startsWith('berth-logs:'), `logs uri: ${result?.uri}`);
  return vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri));
}

/** The container's output in a logs document: Berth's own `[Berth] …` lines (exited, restarted) left out. */
function outputOnly(text: string): string {
  return text.split(/(?<=\n)/).filter((line) => !line.startsWith('[Berth] ')).join('');
}

function currentText(document: vscode.TextDocument): string {
  // The provider may replace the document object's content; look it up again by URI each time.
  const fresh = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === document.uri.toString());
  return (fresh ?? document).getText();
}

/** Debian's statically linked bash (package bash-static, from scripts/install-deps.sh): it runs in a busybox root. */
const BASH_STATIC = '/bin/bash-static';

describe('logs and shell', () => {
  const { client, containers } = useConnectedSuite();

  /**
   * An image with bash: the busybox test image plus /bin/bash, made through the Engine API (a container, PUT archive,
   * commit), so it needs no build and no network on either engine.
   */
  async function imageWithBash(): Promise<string> {
    assert.ok(existsSync(BASH_STATIC), `${BASH_STATIC} is missing: run bash scripts/install-deps.sh (package bash-static)`);
    const repo = 'berth-it/with-bash';
    const tag = `t${Date.now()}`;
    const reference = containers.trackImage(`${repo}:${tag}`);
    const { Id } = await client.containers.create(containerSpec(containers.image, ['true']));
    try {
      const data = readFileSync(BASH_STATIC);
      await client.containers.putArchive(Id, '/bin', await tarOf([{ header: { name: 'bash', mode: 0o755, size: data.length }, data }]));
      await client.containers.commit(Id, { repo, tag });
    } finally {
      await client.containers.remove(Id, { force: true });
    }
    return reference;
  }

  it('Open Logs in Editor shows stdout byte-exact, non-ASCII included, then one line saying it exited', async () => {
    const script = `printf '%s\\n' '${KNOWN_LINE}'; printf 'second line\\n'; printf 'last\\n'`;
    const { id, name } = await containers.create({ cmd: ['sh', '-c', script] });
    await (await client.containers.wait(id, { condition: 'not-running' })).result;
    await modelShowsContainer(id, 'exited');
    const document = await openLogs(id);
    const notice = `[Berth] ${name} exited with status 0; waiting for it to start again…\n`;
    const expected = `${KNOWN_LINE}\nsecond line\nlast\n${notice}`;
    const text = await eventually('the logs document to hold all output and the exit line', () => {
      const value = currentText(document);
      return value.includes('exited with status') ? value : undefined;
    });
    assert.equal(JSON.stringify(text), JSON.stringify(expected));
    assert.equal(Buffer.compare(Buffer.from(text, 'utf8'), Buffer.from(expected, 'utf8')), 0);
  });

  it('Open Logs in Editor on a container under a restart policy: each run, its exit line, then one restart line, in the engine\'s order', async () => {
    // Numbers its runs in a file of its own (kept across restarts), prints one line and fails: on-failure:3 runs it 4 times.
    const script = 'n=$(cat /run-count 2>/dev/null || echo 0); n=$((n+1)); echo $n > /run-count; echo "run $n"; exit 1';
    const name = uniqueName('berth-it-restarter');
    const restartPolicy = { RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 3 } };
    const { Id: id } = await client.containers.create(containerSpec(containers.image, ['sh', '-c', script], { HostConfig: restartPolicy }), { name });
    containers.track(id);
    const document = await openLogs(id);
    await eventually('the waiting line', () => (currentText(document).includes('has not started yet') ? true : undefined));
    await client.containers.start(id);
    const exitLine = `[Berth] ${name} exited with status 1; waiting for it to start again…\n`;
    const text = await eventually('four exit lines, the container stopped for good', async () => {
      const value = currentText(document);
      const { State, RestartCount } = await client.containers.inspect(id);
      return value.split(exitLine).length - 1 >= 4 && !State.Running && State.Restarting !== true && RestartCount === 3 ? value : undefined;
    }, 45_000);
    const runs = [1, 2, 3, 4].map((run) => `run ${run}\n${exitLine}`);
    assert.equal(text, `[Berth] ${name} has not started yet; waiting for it to start…\n${runs.join(`[Berth] ${name} restarted\n`)}`);
  });

  it('Open Logs in Editor marks stderr lines and keeps each stream in order', async () => {
    // The engine orders lines within a stream but not across stdout and stderr (`docker logs` shows the same), so
    // each stream is checked on its own.
    const script = `printf '%s\\n' '${KNOWN_LINE}'; printf 'out two\\n'; printf 'err one ✓\\n' >&2; printf 'err two\\n' >&2; printf 'out three\\n'`;
    const { id } = await containers.create({ cmd: ['sh', '-c', script] });
    await (await client.containers.wait(id, { condition: 'not-running' })).result;
    const document = await openLogs(id);
    const text = await eventually('all five lines', () => {
      const value = outputOnly(currentText(document));
      return value.split('\n').length === 6 ? value : undefined;
    });
    assert.ok(text.endsWith('\n'), JSON.stringify(text));
    const lines = text.slice(0, -1).split('\n');
    assert.deepEqual(lines.filter((line) => !line.startsWith('stderr| ')), [KNOWN_LINE, 'out two', 'out three']);
    assert.deepEqual(lines.filter((line) => line.startsWith('stderr| ')), ['stderr| err one ✓', 'stderr| err two']);
  });

  it('a TTY container\'s logs are one stream, without stderr marks', async () => {
    const { id } = await containers.create({ cmd: ['sh', '-c', `echo '${KNOWN_LINE}'; echo err >&2`], tty: true });
    await (await client.containers.wait(id, { condition: 'not-running' })).result;
    const document = await openLogs(id);
    const text = await eventually('the TTY logs', () => {
      const value = outputOnly(currentText(document));
      return value.includes('err') ? value : undefined;
    });
    // A TTY turns \n into \r\n; the document shows lines, so compare line by line.
    assert.deepEqual(text.split(/\r?\n/).filter((line) => line !== ''), [KNOWN_LINE, 'err']);
  });

  it('the logs document keeps appending while the container runs', async () => {
    const script = 'echo first; while [ ! -f /tmp/go ]; do sleep 0.1; done; echo second; sleep 300';
    const { id } = await containers.create({ cmd: ['sh', '-c', script] });
    await modelShowsContainer(id, 'running');
    const document = await openLogs(id);
    await eventually('the first line', () => (currentText(document) === 'first\n' ? true : undefined));
    await execOutput(client, id, ['touch', '/tmp/go']);
    await eventually('the line written after opening', () =>
      currentText(document) === 'first\nsecond\n' ? true : undefined);
  });

  async function attachShell(id: string, name: string): Promise<vscode.Terminal> {
    const result = await vscode.commands.executeCommand<{ terminalName: string }>('berth.attachShell', id);
    assert.equal(result?.terminalName, `Shell: ${name}`);
    const terminal = vscode.window.terminals.find((candidate) => candidate.name === `Shell: ${name}`);
    assert.ok(terminal, 'the shell terminal exists');
    terminal.show();
    return terminal;
  }

  async function answerFile(id: string): Promise<string> {
    return eventually(
      'the typed command to take effect in the container',
      async () => {
        const output = (await execOutput(client, id, ['cat', '/tmp/answer'])).trim();
        return output === '' || output.includes('No such file') ? undefined : output;
      },
      45_000,
    );
  }

  it('Attach Shell runs an interactive shell (sh after bash is missing): typed input runs in the container', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const terminal = await attachShell(id, name);
    // The busybox image has no bash: the extension falls back to sh. Type once that shell runs.
    await execRunning(client, id, 'sh');
    terminal.sendText('echo $((6*7)) > /tmp/answer');
    assert.equal(await answerFile(id), '42');
    terminal.sendText('exit');
  });

  it('Attach Shell runs bash when the image has it: $BASH_VERSION is set in the typed command', async () => {
    const image = await imageWithBash();
    const { id, name } = await containers.create({ cmd: ['sleep', '300'], image });
    await modelShowsContainer(id, 'running');
    const terminal = await attachShell(id, name);
    // bash is the first candidate: it is what runs, and sh is never tried.
    await execRunning(client, id, 'bash');
    // Only bash sets BASH_VERSION; busybox sh would write an empty line, which answerFile does not accept.
    terminal.sendText('echo "bash $BASH_VERSION" > /tmp/answer');
    assert.match(await answerFile(id), /^bash 5\.\d+\.\d+/);
    terminal.sendText('exit');
  });

  it('Attach Shell keeps what the user types while it is still finding a shell', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(id, 'running');
    const terminal = await attachShell(id, name);
    // Typed at once, as a user does: the input must reach the shell that ends up running, not the failed bash probe.
    terminal.sendText('echo $((6*7)) > /tmp/answer');
    assert.equal(await answerFile(id), '42');
    terminal.sendText('exit');
  });
});
