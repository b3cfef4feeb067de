// Berth's engine tools as VS Code sees them: registered with the language-model API, and every read tool answered
// through `vscode.lm.invokeTool` against real containers on the pass's engine (dockerd, then Podman), and an act. VS
// Code accepts its own confirmation dialogs by itself while extension tests run (its dialog service skips them), so
// what the confirmation says is checked in test/unit/tools, and a declined act through `berth mcp`'s read-only mode.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setBerthSetting, uniqueName, useConnectedSuite } from '../support/fixtures';
import { sleep } from '../../support/wait';

const READ_TOOLS = ['list_containers', 'list_images', 'inspect_container', 'container_logs', 'container_stats', 'container_top', 'engine_info'];
const ACT_TOOLS = ['start_container', 'stop_container', 'restart_container', 'remove_container', 'run_container', 'pull_image', 'compose_up', 'compose_down'];

async function invoke(tool: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(`berth_${tool}`, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('\n');
}

describe('agent tools in VS Code', () => {
  const { containers, engines, engine } = useConnectedSuite();

  after(() => setBerthSetting('agentTools.enabled', undefined));

  it('registers every read and act tool with the language-model API', () => {
    const names = new Set(vscode.lm.tools.map((tool) => tool.name));
    for (const tool of [...READ_TOOLS, ...ACT_TOOLS]) assert.ok(names.has(`berth_${tool}`), `berth_${tool} is registered`);
  });

  it('answers every read tool about a real container, with env values hidden and logs marked as untrusted', async () => {
    const name = uniqueName('berth-it-agent');
    const { id } = await containers.create({ name, cmd: ['sh', '-c', 'echo ready; echo warned >&2; exec sleep 600'] });

    assert.ok((await invoke('list_containers', {})).includes(name), 'listed');
    assert.ok((await invoke('list_images', {})).includes(engines.image), 'the test image is listed');
    const inspect = await invoke('inspect_container', { container: name });
    assert.match(inspect, new RegExp(`"name": "${name}"`));
    assert.match(inspect, /"envValuesShown": false/);

    let logs = '';
    for (let attempt = 0; attempt < 50 && !logs.includes('warned'); attempt++) {
      logs = await invoke('container_logs', { container: name });
      if (!logs.includes('warned')) await sleep(100);
    }
    assert.match(logs, /^<untrusted-data source="logs of container /);
    assert.match(logs, /^stdout\| ready$/m);
    assert.match(logs, /^stderr\| warned$/m);

    assert.match(await invoke('container_top', { container: id }), /sleep 600/);
    assert.match(await invoke('container_stats', { container: id }), /"pids"|is not running/);
    const info = await invoke('engine_info', {});
    assert.match(info, engine.kind === 'podman' ? /"product": "Podman"/ : /"product": "Docker Engine"/);
    assert.match(info, /"current": true/);
  });

  it('an act goes through the confirmation and happens: the container stops', async () => {
    const name = uniqueName('berth-it-agent-act');
    const { id } = await containers.create({ name, cmd: ['sleep', '600'] });
    assert.match(await invoke('stop_container', { container: name, timeoutSeconds: 0 }), new RegExp(`Stop: done for ${name}`));
    assert.equal((await containers.client.containers.inspect(id)).State.Running, false);
  });

  it("gives the engine's own words for an unknown container, as the tool's error", async () => {
    await assert.rejects(invoke('container_logs', { container: 'berth-it-no-such-container' }), /container_logs failed: .*no such container/i);
  });

  it('answers nothing once berth.agentTools.enabled is off', async () => {
    await setBerthSetting('agentTools.enabled', false);
    await assert.rejects(invoke('list_containers', {}), /turned off|not (found|registered|contributed|enabled)|unknown tool/i);
    await setBerthSetting('agentTools.enabled', undefined);
    assert.ok((await invoke('engine_info', {})).includes('"apiVersion"'), 'back on, it answers again');
  });
});
