/** `berth events` against `docker events` on the same engine and window, byte for byte; Ctrl-C ends it with 0. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { engineTimeOf } from '../../../src/engine';
import { containerSpec } from '../../support/containerSpec';
import { printed } from '../../support/childOutput';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { collect, createCliHarness, type CliHarness } from './support';

const execFileAsync = promisify(execFile);

/**
 * The end of a compared window, just ahead: both commands wait for it. Podman 4.3 answers nothing for an `until`
 * already past (docker's CLI prints nothing there too), so a past end would compare nothing with nothing.
 */
const WINDOW_END_AHEAD_MS = 2_000;

const engineNow = (aheadMs = 0): string => engineTimeOf(BigInt(Date.now() + aheadMs) * 1_000_000n);

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth events (${target.name})`, { skip: target.skip }, () => {
    let harness: CliHarness;
    let dockerConfig: string;
    before(async () => {
      harness = await createCliHarness(`events-${target.name}`);
      dockerConfig = harness.dockerConfig({});
    });
    after(async () => {
      await harness.dispose();
    });

    const host = { host: target.host };
    const client = (): CliHarness['client'] => harness.clientFor(target.host);
    const docker = async (args: string[]): Promise<Buffer> =>
      (
        await execFileAsync('docker', args, {
          env: { PATH: process.env.PATH, DOCKER_HOST: target.host, DOCKER_CONFIG: dockerConfig, TZ: process.env.TZ },
          encoding: 'buffer',
        })
      ).stdout;

    /** create (with a label that needs sorting and escaping), start, exit 3, remove: resolves the id. */
    const lifecycle = async (): Promise<string> => {
      const labels = { 'berth.cli.suite': harness.labelFilter.split('=')[1] ?? '', 'a.first': 'x, y=z' };
      const { Id } = await client().containers.create(containerSpec(harness.engines.image, ['sh', '-c', 'exit 3'], { Labels: labels }));
      const { result } = await client().containers.wait(Id, { condition: 'next-exit' });
      await client().containers.start(Id);
      assert.equal((await result).StatusCode, 3);
      await client().containers.remove(Id, { force: true });
      return Id;
    };

    /** berth and docker over the same window, started together so that both wait for the same end. */
    const bothOver = async (since: string, until: string, extra: string[]): Promise<{ ours: Buffer; theirs: Buffer }> => {
      const args = ['events', '--since', since, '--until', until, ...extra];
      const [ours, theirs] = await Promise.all([harness.berth(args, host), docker(args)]);
      assert.equal(ours.code, 0, ours.stderr);
      assert.equal(ours.stderr, '');
      return { ours: ours.stdoutBytes, theirs };
    };

    void it("prints docker's default lines for the same window, byte for byte", async () => {
      const since = engineNow();
      const id = await lifecycle();
      const { ours, theirs } = await bothOver(since, engineNow(WINDOW_END_AHEAD_MS), []);
      assert.ok(theirs.toString('utf8').includes(` container die ${id} (`), `docker printed the container's die:\n${theirs.toString('utf8')}`);
      assert.equal(ours.toString('utf8'), theirs.toString('utf8'));
      assert.ok(ours.equals(theirs));
    });

    void it('applies repeated --filter as docker does', async () => {
      const since = engineNow();
      const id = await lifecycle();
      const filters = ['--filter', 'type=container', '--filter', 'event=die', '--filter', 'event=start', '--filter', `container=${id}`];
      const { ours, theirs } = await bothOver(since, engineNow(WINDOW_END_AHEAD_MS), filters);
      const lines = ours.toString('utf8').trimEnd().split('\n');
      // Podman 4.3 matches `event=` against its own action names, where a container's exit is `died`: only the
      // start passes there, for docker's CLI as for berth's.
      const expected = target.name === 'docker' ? [`container start ${id}`, `container die ${id}`] : [`container start ${id}`];
      assert.deepEqual(
        lines.map((line) => line.split(' ').slice(1, 4).join(' ')),
        expected,
      );
      assert.match(lines[0] ?? '', /\(a\.first=x, y=z, berth\.cli\.suite=/);
      assert.ok(ours.equals(theirs), `berth:\n${ours.toString('utf8')}\ndocker:\n${theirs.toString('utf8')}`);
    });

    void it('--format prints what docker events --format prints for the same window, byte for byte', async () => {
      const since = engineNow();
      const id = await lifecycle();
      // All at once, so that each waits for the same end still ahead (Podman answers nothing for an end already past).
      const until = engineNow(WINDOW_END_AHEAD_MS * 3);
      const templates = [
        'json',
        '{{json .}}',
        '{{.TimeNano}} {{.Time}} {{.Type}} {{.Action}} {{.Status}}|{{.Scope}}|{{.ID}}|{{.From}}|{{.Actor.ID}} {{.Actor.Attributes}}',
        '{{index .Actor.Attributes "name"}}|{{index .Actor.Attributes "nope"}}|{{json .Actor.Attributes}}|{{len .Actor.Attributes}}',
        '{{if eq .Type "container"}}{{.Actor.ID}} {{.Action}}{{else}}other{{end}}',
      ];
      const results = await Promise.all(templates.map((template) => bothOver(since, until, ['--format', template])));
      assert.ok(results[0]?.theirs.toString('utf8').includes(id), "docker printed the container's events");
      for (const [index, { ours, theirs }] of results.entries()) {
        const template = templates[index] as string;
        assert.ok(theirs.length > 0, `${template}: docker printed the window's events`);
        assert.equal(ours.toString('utf8'), theirs.toString('utf8'), template);
      }
      for (const template of ['{{.Foo}}', '{{.Type']) {
        const args = ['events', '--since', since, '--until', until, '--format', template];
        const ours = await harness.berth(args, host);
        const theirs = await docker(args).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: Buffer }) => ({ code: error.code, stderr: error.stderr.toString('utf8') }),
        );
        assert.equal(ours.code, 64);
        assert.equal(theirs.code, 64);
        assert.equal(ours.stdout, '');
        assert.equal(ours.stderr, `berth: ${theirs.stderr}`);
      }
    });

    void it('follows new events until Ctrl-C, then exits 0', async () => {
      const child = harness.start(['events', '--filter', `label=${harness.labelFilter}`], host);
      const result = collect(child);
      // The engine has answered once berth prints a live event; made until one shows (the stream may open late).
      const shown = printed(child, ' container start ');
      let done = false;
      void shown.then(() => (done = true), () => (done = true));
      while (!done) await lifecycle();
      await shown;
      child.kill('SIGINT');
      const { code, stdout, stderr } = await result;
      assert.deepEqual({ code, stderr }, { code: 0, stderr: '' });
      const lines = stdout.trimEnd().split('\n');
      assert.ok(lines.length >= 1 && stdout.endsWith('\n'));
      for (const line of lines) assert.match(line, /^\d{4}-\d\d-\d\dT[\d:.]{18}(Z|[+-]\d\d:\d\d) container \w+ [0-9a-f]{64} \(.*berth\.cli\.suite=/);
    });
  });
}
