// docker cp's reading of its arguments: which side is the container, relative container paths, and refusals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../src/cli/args';
import { parseCopyArguments } from '../../../src/cli/values';

void describe('cp arguments', () => {
  void it('finds the container side, either way round', () => {
    assert.deepEqual(parseCopyArguments('web:/etc/hosts', './hosts'), { direction: 'from-container', container: 'web', containerPath: '/etc/hosts', hostPath: './hosts' });
    assert.deepEqual(parseCopyArguments('dir/.', 'web:tmp'), { direction: 'to-container', container: 'web', containerPath: '/tmp', hostPath: 'dir/.' });
  });

  void it('reads a host path with a colon after a slash as a host path', () => {
    assert.equal(parseCopyArguments('./a:b', 'web:/x').direction, 'to-container');
  });

  void it('refuses two host paths, two containers and an empty container path', () => {
    assert.throws(() => parseCopyArguments('/a', '/b'), (error: unknown) => error instanceof UsageError && /one CONTAINER:PATH and one host path/.test(error.message));
    assert.throws(() => parseCopyArguments('a:/x', 'b:/y'), UsageError);
    assert.throws(() => parseCopyArguments('web:', './x'), (error: unknown) => error instanceof UsageError && /path in the container is empty/.test(error.message));
  });
});
