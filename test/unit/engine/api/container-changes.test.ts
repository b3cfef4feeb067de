import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeArrayDecoder, ChangeTree, MAX_CHANGE_ELEMENT_BYTES, changeLine, isEngineError, type ContainerChange } from '../../../../src/engine';

function decode(chunks: readonly Buffer[]): ContainerChange[] {
  const out: ContainerChange[] = [];
  const decoder = new ChangeArrayDecoder((change) => out.push(change));
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return out;
}

const ANSWER = '[{"Path":"/etc","Kind":0},{"Path":"/etc/名前 \\"q\\" {x}","Kind":1},\n {"Path":"/etc/group","Kind":2}]\n';
const EXPECTED: ContainerChange[] = [
  { Path: '/etc', Kind: 0 },
  { Path: '/etc/名前 "q" {x}', Kind: 1 },
  { Path: '/etc/group', Kind: 2 },
];
const isProtocol = (error: unknown): boolean => isEngineError(error, 'protocol');

void describe('the change list decoder', () => {
  void it('decodes the engine\'s list whole, and split at every byte (a UTF-8 character and braces inside a string too)', () => {
    const bytes = Buffer.from(ANSWER, 'utf8');
    assert.deepEqual(decode([bytes]), EXPECTED);
    for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(decode([bytes.subarray(0, cut), bytes.subarray(cut)]), EXPECTED, `cut at ${cut}`);
    assert.deepEqual(decode([...bytes].map((byte) => Buffer.from([byte]))), EXPECTED);
  });

  void it('hands out each element as soon as its bytes are in, before the list ends', () => {
    const seen: string[] = [];
    const decoder = new ChangeArrayDecoder((change) => seen.push(change.Path));
    decoder.push(Buffer.from('[{"Path":"/a","Kind":1},{"Path":"/b"'));
    assert.deepEqual(seen, ['/a']);
    decoder.push(Buffer.from(',"Kind":1}]'));
    decoder.end();
    assert.deepEqual(seen, ['/a', '/b']);
  });

  void it('null and [] are no changes', () => {
    assert.deepEqual(decode([Buffer.from('null\n')]), []);
    assert.deepEqual(decode([Buffer.from('nu'), Buffer.from('ll')]), []);
    assert.deepEqual(decode([Buffer.from(' [ ] ')]), []);
    assert.deepEqual(decode([]), []);
  });

  void it('refuses what is not the Engine API\'s list, with a protocol error rather than a crash', () => {
    for (const bad of ['{"Path":"/a","Kind":1}', 'true', '[{"Path":"/a","Kind":7}]', '[{"Path":5,"Kind":1}]', '[{"Kind":1}]', '[1]', '[{"Path":"/a","Kind":1}] x', '[{"Path":"/a",}]']) {
      assert.throws(() => decode([Buffer.from(bad)]), isProtocol, bad);
    }
  });

  void it('a list cut midway is an error, not a shorter list', () => {
    for (const cut of ['[{"Path":"/a","Kind":1}', '[{"Path":"/a","Ki', '[']) assert.throws(() => decode([Buffer.from(cut)]), isProtocol, cut);
  });

  void it('an element longer than the bound is refused while it is read, not after the whole answer', () => {
    const decoder = new ChangeArrayDecoder(() => assert.fail('no element expected'));
    decoder.push(Buffer.from('[{"Path":"/'));
    const slab = Buffer.alloc(1024, 0x61);
    let pushed = 0;
    assert.throws(() => {
      for (;;) {
        decoder.push(slab);
        pushed += slab.length;
      }
    }, isProtocol);
    assert.ok(pushed <= MAX_CHANGE_ELEMENT_BYTES, `refused after ${pushed} bytes`);
  });

  void it('docker diff\'s line for each kind', () => {
    assert.deepEqual(EXPECTED.map(changeLine), ['C /etc\n', 'A /etc/名前 "q" {x}\n', 'D /etc/group\n']);
  });
});

void describe('the change tree', () => {
  void it('nests paths, keeps unlisted parents without a kind, and counts each kind', () => {
    const tree = new ChangeTree();
    tree.addAll([
      { Path: '/etc', Kind: 0 },
      { Path: '/etc/hosts', Kind: 0 },
      { Path: '/new/dir/file', Kind: 1 },
      { Path: '/new/dir/other', Kind: 1 },
      { Path: '/etc/group', Kind: 2 },
    ]);
    assert.deepEqual(tree.counts, { added: 2, changed: 2, deleted: 1 });
    assert.equal(tree.node('/new')?.kind, undefined);
    assert.equal(tree.node('/new/dir/file')?.kind, 1);
    assert.deepEqual(ChangeTree.sortedChildren(tree.root).map((node) => node.name), ['etc', 'new']);
    assert.deepEqual(ChangeTree.sortedChildren(tree.node('/etc') as never).map((node) => node.path), ['/etc/group', '/etc/hosts']);
    assert.equal(tree.size, 7);
  });

  void it('a parent listed after its child gets its kind; a path listed twice is one node', () => {
    const tree = new ChangeTree();
    tree.addAll([{ Path: '/a/b', Kind: 1 }, { Path: '/a', Kind: 1 }, { Path: '//a/b', Kind: 0 }]);
    assert.equal(tree.node('/a')?.kind, 1);
    assert.equal(tree.node('/a/b')?.kind, 0);
    assert.equal(tree.size, 2);
  });

  void it('past its bound it only counts: what was left out is said, and the nodes stop growing', () => {
    const tree = new ChangeTree(100);
    for (let index = 0; index < 1000; index++) tree.add({ Path: `/many/f${index}`, Kind: 1 });
    assert.ok(tree.size <= 100);
    assert.equal(tree.counts.added, 1000);
    assert.equal(tree.leftOut, 1000 - (tree.size - 1));
  });
});
