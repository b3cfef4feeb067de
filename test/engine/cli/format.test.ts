/**
 * `--format` next to the docker CLI on the same private dockerd: a table of templates for `ps` and `images`, each
 * printed by both, byte for byte, with the same exit status; and bad templates refused with docker's words before
 * anything is listed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dockerCli, type DockerCliResult } from '../../support/dockerHome';
import { createCliHarness, type CliHarness } from './support';

const PS_TEMPLATES = [
  'json',
  'table',
  '{{.ID}}',
  '{{json .}}',
  '{{.Names}}\t{{.Image}}\t{{.Command}}\t{{.State}}',
  'table {{.ID}}\t{{.Names}}\t{{lower .Status}}|{{.Label "berth.fmt"}}',
  'table {{.Names}}\t{{.Mounts}}\t{{.Networks}}\t{{.LocalVolumes}}\t{{.Ports}}\t{{.Size}}',
  '{{.Labels}} {{json .Names}} {{printf "%q|%-20s|" .Names .Image}} {{truncate .ID 3}} {{upper .State}} {{.CreatedAt}}',
  '{{range split .Labels ","}}[{{.}}]{{end}}',
  '{{if eq .State "running"}}up{{else}}down{{end}} {{.Label "nope"}}|{{- " x " -}}|{{join (split .Names "-") "+"}}',
  '{{.Foo}}',
  '{{.Names',
  '{{nosuch .ID}}',
  '{{.Names | title}} {{len .ID}} {{index (split .Labels ",") 0}}',
];

const IMAGES_TEMPLATES = [
  'json',
  'table',
  '{{json .}}',
  '{{.Repository}}:{{.Tag}} {{.ID}}',
  'table {{.Repository}}\t{{.Tag}}\t{{.ID}}\t{{.Size}}\t{{.VirtualSize}}\t{{.Containers}}\t{{.Digest}}',
  '{{.CreatedAt}}|{{.SharedSize}}|{{.UniqueSize}}|{{json .Repository}}',
  '{{.Repository}} {{end}}',
  '{{.Nope}}',
];

const VOLUME_LS_TEMPLATES = [
  'json',
  'table',
  '{{json .}}',
  'table {{.Name}}\t{{.Links}}\t{{.Size}}\t{{.Labels}}\t{{.Scope}}\t{{.Mountpoint}}\t{{.Group}}\t{{.Availability}}\t{{.Status}}',
  '{{.Driver}}:{{.Name}} {{.Label "berth.fmt"}}',
  '{{.Name',
];

const VOLUME_INSPECT_TEMPLATES = [
  '{{.Name}} {{.Labels}} {{json .Labels}} {{.Options}} {{.Status}} {{.UsageData}} {{.Driver}} {{.Scope}}',
  '{{json .}}',
  '{{.Mountpoint}}',
  '{{range $k, $v := .Labels}}{{$k}}={{$v}};{{end}}',
  '{{index .Labels "berth.fmt"}}',
];

void describe('--format next to docker', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('format');
  });
  after(async () => {
    await harness.dispose();
  });

  const docker = (args: readonly string[]): DockerCliResult<string> => dockerCli(harness.engines.dockerHost, args);

  /**
   * The engine lists images created in the same second in any order, and in a new order at each call, so docker's
   * own two listings may differ. While the engine holds such a tie, a listing is compared as a set of lines.
   */
  const imageCreatedTies = (): boolean => {
    const created = docker(['images', '-a', '--format', '{{.CreatedAt}}']).stdout.split('\n').filter(Boolean);
    return new Set(created).size !== created.length;
  };
  const linesAsSet = (text: string): string[] => text.split('\n').sort();

  /**
   * Relative times ("Up 3 seconds") may tick between two calls: docker is asked before and after berth. On a loaded
   * machine berth's call alone can span two ticks, so a listing that matches neither is read again, a few times: a
   * tick passes, a real difference stays.
   */
  const compare = async (args: readonly string[], order: 'exact' | 'ties-in-any-order' = 'exact'): Promise<void> => {
    let before = docker(args);
    let ours = await harness.berth(args);
    let after = docker(args);
    for (let attempt = 1; attempt < 4 && ours.stdout !== before.stdout && ours.stdout !== after.stdout; attempt++) {
      before = docker(args);
      ours = await harness.berth(args);
      after = docker(args);
    }
    const theirs = [before, after].find((candidate) => candidate.stdout === ours.stdout) ?? before;
    if (order === 'ties-in-any-order' && ours.stdout !== theirs.stdout && imageCreatedTies()) {
      const candidates = [before, after].map((candidate) => linesAsSet(candidate.stdout).join('\n'));
      assert.ok(candidates.includes(linesAsSet(ours.stdout).join('\n')), `${args.join(' ')}\n${ours.stdout}\nvs\n${before.stdout}`);
    } else assert.equal(ours.stdout, theirs.stdout, args.join(' '));
    assert.equal(ours.code, theirs.status, `${args.join(' ')}: ${ours.stderr}`);
    // berth's messages carry its `berth: ` prefix; the words after it are docker's.
    if (theirs.status !== 0) assert.ok(ours.stderr.startsWith(`berth: ${theirs.stderr.trim()}`), `${ours.stderr} vs ${theirs.stderr}`);
  };

  void it('ps prints every template of the table as docker does', async () => {
    const name = `fmt-ps-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, '-l', 'berth.fmt=<b&c>', '--name', name, harness.engines.image, 'sleep', '600']);
    assert.equal(started.code, 0, started.stderr);
    for (const template of PS_TEMPLATES) await compare(['ps', '-a', '--filter', `name=${name}`, '--format', template]);
    await compare(['ps', '-a', '--filter', `name=${name}`, '--no-trunc', '--format', '{{.ID}} {{.Command}} {{.Image}}']);
  });

  void it('images prints every template of the table as docker does', async () => {
    for (const template of IMAGES_TEMPLATES) await compare(['images', '--format', template], 'ties-in-any-order');
  });

  void it('volume ls --format and volume inspect -f print what docker prints', async () => {
    const name = `fmt-vol-${process.pid}`;
    const created = await harness.berth(['volume', 'create', '--label', 'berth.test=1', '--label', 'berth.fmt=<v>', name]);
    assert.equal(created.code, 0, created.stderr);
    try {
      for (const template of VOLUME_LS_TEMPLATES) await compare(['volume', 'ls', '--filter', `name=${name}`, '--format', template]);
      for (const template of VOLUME_INSPECT_TEMPLATES) await compare(['volume', 'inspect', '-f', template, name]);
    } finally {
      docker(['volume', 'rm', '-f', name]);
    }
  });

  void it('stats --no-stream --format prints docker\'s fields, headers and shape; the stable fields byte for byte', async () => {
    const name = `fmt-stats-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, '--name', name, harness.engines.image, 'sleep', '600']);
    assert.equal(started.code, 0, started.stderr);
    const stable = '{{.Container}}|{{.Name}}|{{.ID}}|{{.NetIO}}|{{.PIDs}}|{{upper .Name}}';
    // Each read takes the engine two samples: a few cases cover a name, an id prefix, --no-trunc and the listing.
    await compare(['stats', '--no-stream', name, '--format', `table ${stable.replace(/\|/g, '\\t')}`]);
    await compare(['stats', '--no-stream', '--no-trunc', started.stdout.trim().slice(0, 20), '--format', stable]);
    await compare(['stats', '--no-stream', '--format', stable]);
    // CPU and memory change between two reads: the shape is compared, with the stable values.
    const figures = /^\d+\.\d\d%$/;
    for (const format of ['json', '{{json .}}']) {
      const ours = await harness.berth(['stats', '--no-stream', name, '--format', format]);
      const theirs = docker(['stats', '--no-stream', name, '--format', format]);
      assert.equal(ours.code, 0, ours.stderr);
      const [mine, theirsJson] = [ours.stdout, theirs.stdout].map((text) => JSON.parse(text) as Record<string, string>);
      assert.deepEqual(Object.keys(mine ?? {}), Object.keys(theirsJson ?? {}));
      for (const key of ['BlockIO', 'Container', 'ID', 'Name', 'NetIO', 'PIDs']) assert.equal(mine?.[key], theirsJson?.[key], key);
      for (const key of ['CPUPerc', 'MemPerc']) assert.match(mine?.[key] ?? '', figures, key);
      assert.match(mine?.['MemUsage'] ?? '', /^[\d.]+[KMG]?i?B \/ [\d.]+[KMG]?i?B$/);
    }
    const table = await harness.berth(['stats', '--no-stream', name, '--format', 'table']);
    const theirs = docker(['stats', '--no-stream', name, '--format', 'table']);
    assert.equal(table.stdout.split('\n')[0], theirs.stdout.split('\n')[0]);
    assert.equal(table.stdout.split('\n')[1]?.split(/\s+/).slice(0, 2).join(' '), theirs.stdout.split('\n')[1]?.split(/\s+/).slice(0, 2).join(' '));
    for (const template of ['{{.Foo}}', '{{.Name', '{{json .Name}} {{.CPUPerc | nosuch}}']) await compare(['stats', '--no-stream', name, '--format', template]);
  });

  void it('system df --format prints every template of the table as docker does', async () => {
    for (const template of ['json', 'table', '{{json .}}', '{{.Type}}: {{.TotalCount}} {{.Active}} {{.Size}} {{.Reclaimable}}', 'table {{.Reclaimable}}\t{{lower .Type}}', '{{.Types}}', '{{if']) {
      await compare(['system', 'df', '--format', template]);
    }
    // -v keeps berth's tables: `--format table` is the same output, a template is refused (exit 125) before the engine is asked.
    const plain = await harness.berth(['system', 'df', '-v']);
    const table = await harness.berth(['system', 'df', '-v', '--format', 'table']);
    assert.equal(table.code, 0, table.stderr);
    // Relative times tick between the two reads: the first column of each line (headings, names, ids) is compared,
    // as a set, since the engine lists images created in the same second in a new order at each call.
    const firstColumn = (text: string): string[] => text.split('\n').map((line) => line.split(/\s{2,}/)[0] ?? '').sort();
    assert.deepEqual(firstColumn(table.stdout), firstColumn(plain.stdout));
    assert.ok(table.stdout.startsWith('Images space usage:\n'), table.stdout);
    const refused = await harness.berth(['--host', 'unix:///nonexistent/berth-format.sock', 'system', 'df', '-v', '--format', '{{json .}}']);
    assert.equal(refused.code, 125);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^berth: --format "\{\{json \.\}\}" with -v is not supported: .*Leave out -v, or use --format table\n$/);
  });

  void it('a bad template is refused before anything is listed: exit 1 and the parser words, not a crash', async () => {
    const result = await harness.berth(['--host', 'unix:///nonexistent/berth-format.sock', 'ps', '--format', '{{.ID']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'berth: failed to parse template: template: :1: unclosed action\n');
    assert.equal(result.stdout, '');
  });
});
