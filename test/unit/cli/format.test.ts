import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerTable, displayWidth, ellipsis, familiarImage, goQuote, humanDuration, humanSize, imageTable, renderTable } from '../../../src/cli/format';
import type { ContainerSummary, ImageSummary } from '../../../src/engine/connection';

const now = Date.UTC(2026, 0, 10, 12, 0, 0);
const nowSeconds = now / 1000;

void describe('human durations and sizes (as docker prints them)', () => {
  void it('follows go-units HumanDuration', () => {
    const cases: Array<[number, string]> = [
      [500, 'Less than a second'],
      [1_000, '1 second'],
      [59_000, '59 seconds'],
      [60_000, 'About a minute'],
      [5 * 60_000, '5 minutes'],
      [60 * 60_000, 'About an hour'],
      [47 * 3_600_000, '47 hours'],
      [3 * 86_400_000, '3 days'],
      [15 * 86_400_000, '2 weeks'],
      [90 * 86_400_000, '3 months'],
      [800 * 86_400_000, '2 years'],
    ];
    for (const [milliseconds, expected] of cases) assert.equal(humanDuration(milliseconds), expected, String(milliseconds));
  });

  void it('uses decimal units with three significant digits', () => {
    assert.equal(humanSize(0), '0B');
    assert.equal(humanSize(999), '999B');
    assert.equal(humanSize(1_000), '1kB');
    assert.equal(humanSize(1_234_567), '1.23MB');
    assert.equal(humanSize(4_860_000), '4.86MB');
    assert.equal(humanSize(123_400_000), '123MB');
    assert.equal(humanSize(2_500_000_000), '2.5GB');
  });

  void it('cuts by display width, never inside a character, as docker does', () => {
    assert.equal(ellipsis('short', 20), 'short');
    assert.equal(ellipsis('abcdefghijklmnopqrstuvwxyz', 20), 'abcdefghijklmnopqrs…');
    // Wide characters take two columns: 9 of them and the ellipsis fill 19 of the 20.
    assert.equal(ellipsis('😀'.repeat(25), 20), `${'😀'.repeat(9)}…`);
    assert.equal(ellipsis('echo 日本語のテキストです', 20), 'echo 日本語のテキス…');
    assert.equal(displayWidth('echo 日本語のテキス…'), 20);
    assert.equal(ellipsis('ÄÖÜäöü', 20), 'ÄÖÜäöü');
  });

  void it("quotes like Go's strconv.Quote: control characters as \\x01, printable text as it is", () => {
    assert.equal(goQuote('sh -c "echo\x01\ttab"'), '"sh -c \\"echo\\x01\\ttab\\""');
    assert.equal(goQuote('a\\b\nc\x7f'), '"a\\\\b\\nc\\x7f"');
    assert.equal(goQuote('grüße 日本 😀'), '"grüße 日本 😀"');
    assert.equal(goQuote('zero\u200bwidth'), '"zero\\u200bwidth"');
  });

  void it("shortens IMAGE as docker ps does: no digest, no docker.io/library/", () => {
    const id = `sha256:${'b'.repeat(64)}`;
    assert.equal(familiarImage(`docker.io/library/busybox:1.36@sha256:${'c'.repeat(64)}`, id, true), 'busybox:1.36');
    assert.equal(familiarImage(`busybox@sha256:${'c'.repeat(64)}`, id, true), 'busybox');
    assert.equal(familiarImage('docker.io/team/app:2', id, true), 'team/app:2');
    assert.equal(familiarImage('127.0.0.1:5055/berth/busybox:1.0', id, true), '127.0.0.1:5055/berth/busybox:1.0');
    assert.equal(familiarImage(id, id, true), 'bbbbbbbbbbbb');
    assert.equal(familiarImage(`busybox@sha256:${'c'.repeat(64)}`, id, false), `busybox@sha256:${'c'.repeat(64)}`);
  });
});

void describe('tables', () => {
  void it("pads every column but the last by three spaces, to docker's minimum width of 10, by display width", () => {
    assert.equal(renderTable(['A', 'LONG HEADER', 'C'], [['xx', 'y', 'z'], ['x', 'y', '']]), 'A         LONG HEADER   C\nxx        y             z\nx         y\n');
    assert.equal(renderTable(['NAME', 'X'], [['日本語の名前', '1'], ['latin-name12', '2']]), 'NAME           X\n日本語の名前   1\nlatin-name12   2\n');
  });

  void it('renders containers like docker ps', () => {
    const container: ContainerSummary = {
      Id: 'a'.repeat(64),
      Names: ['/web'],
      Image: 'berth-test/busybox:latest',
      ImageID: `sha256:${'b'.repeat(64)}`,
      Command: 'sh -c "echo hello; sleep 1000"',
      Created: nowSeconds - 300,
      Ports: [],
      Labels: {},
      State: 'running',
      Status: 'Up 5 minutes',
    };
    const lines = containerTable([container], now, true).split('\n');
    assert.equal(lines[0], 'CONTAINER ID   IMAGE                       COMMAND                   CREATED         STATUS         NAMES');
    assert.equal(lines[1], `${'a'.repeat(12)}   berth-test/busybox:latest   "sh -c \\"echo hello; …"   5 minutes ago   Up 5 minutes   web`);
    assert.match(containerTable([container], now, false), new RegExp(`^${'a'.repeat(64)} `, 'm'));
  });

  void it('renders images with one row per tag, untagged ones as <none>', () => {
    const image = (id: string, tags: string[] | null, digests: string[] | null): ImageSummary => ({
      Id: `sha256:${id.repeat(64)}`,
      ParentId: '',
      RepoTags: tags,
      RepoDigests: digests,
      Created: nowSeconds - 3 * 86_400,
      Size: 1_234_567,
      Labels: null,
      Containers: -1,
    });
    const text = imageTable([image('c', ['127.0.0.1:5055/berth/busybox:1.0', 'busybox:latest'], null), image('d', ['<none>:<none>'], null), image('e', [], ['repo/x@sha256:00'])], now);
    assert.equal(
      text,
      [
        'REPOSITORY                     TAG       IMAGE ID       CREATED      SIZE',
        '127.0.0.1:5055/berth/busybox   1.0       cccccccccccc   3 days ago   1.23MB',
        'busybox                        latest    cccccccccccc   3 days ago   1.23MB',
        '<none>                         <none>    dddddddddddd   3 days ago   1.23MB',
        'repo/x                         <none>    eeeeeeeeeeee   3 days ago   1.23MB',
        '',
      ].join('\n'),
    );
  });
});
