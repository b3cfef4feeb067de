// What Run's pull progress line says (issue 20): a pull that only adds a tag says so instead of sticking at "0%".
// The lines are what the private dockerd and Podman send for a registry image whose layers the engine already has.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LayerProgress, pullProgressText, type LayerProgressLine } from '../../../src/common/layerProgress';

function textAfter(lines: readonly LayerProgressLine[]): string[] {
  const progress = new LayerProgress();
  return lines.map((line) => {
    progress.update(line);
    return pullProgressText(progress);
  });
}

void describe('pullProgressText', () => {
  void it('dockerd, every layer already there: "checking layers", then "layers already present"', () => {
    assert.deepEqual(
      textAfter([
        { status: 'Pulling from berth/busybox', id: '1.0' },
        { status: 'Already exists', progressDetail: {}, id: '117000d46939' },
        { status: 'Digest: sha256:12ea409f75432e0b0ab07e432d8e6d5465d50aa12ac0bc7ab3e1e28ee57028cf' },
        { status: 'Status: Downloaded newer image for 127.0.0.1:5191/berth/busybox:1.0' },
      ]),
      ['checking layers', 'layers already present', 'layers already present', 'layers already present'],
    );
  });

  void it('an engine that names no layer at all and says it is done: "layers already present", never "0%"', () => {
    const shown = textAfter([{ status: 'Pulling from berth/busybox', id: 'latest' }, { status: 'Status: Image is up to date for berth/busybox:latest' }]);
    assert.deepEqual(shown, ['checking layers', 'layers already present']);
  });

  void it('Podman: one layer present, then the config blob fetched: a percentage (which never goes back)', () => {
    const shown = textAfter([
      { status: 'Already exists', progressDetail: {}, id: '117000d46939' },
      { status: 'Pulling fs layer', progressDetail: {}, id: '8431ab2aaec5' },
      { status: 'Download complete', progressDetail: {}, id: '8431ab2aaec5' },
    ]);
    assert.deepEqual(shown, ['layers already present', '100%', '100%']);
  });

  void it('a real download counts up in percent', () => {
    const shown = textAfter([
      { status: 'Pulling fs layer', progressDetail: {}, id: 'l1' },
      { status: 'Downloading', progressDetail: { current: 250, total: 1000 }, id: 'l1' },
      { status: 'Pull complete', progressDetail: {}, id: 'l1' },
    ]);
    assert.deepEqual(shown, ['0%', '25%', '100%']);
  });
});
