// The bad-input rows of the hardening work (issue 17): untrusted transports, workspace settings and container output.
// Joined to the table in bad-input-cases.ts; asserted by bad-input-security.test.ts (against the real dockerd) and,
// for the workspace's engine, by the integration suite's workspace-trust tests.
import type { BadInputCase } from './bad-input-cases';

export const SECURITY_CASES: readonly BadInputCase[] = [
  {
    id: 'credentials-plain-tcp',
    category: 'Untrusted settings, transports and output',
    action: 'pull / push / run (signed in)',
    input: 'an engine at tcp://192.0.2.10:2375 (plain TCP, no TLS)',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'Refusing to send registry credentials to the engine at tcp://192.0.2.10:2375: it is reached over plain TCP without TLS, so they would cross the network as readable text. Reach the engine over TLS (tcp://…:2376 with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH, or a docker context with certificates) or over ssh://; anonymous pulls still work',
  },
  {
    id: 'hostile-terminal-output',
    category: 'Untrusted settings, transports and output',
    action: 'run / logs in a terminal',
    input: 'OSC 8 links, OSC 0 titles, OSC 633 marks, cursor moves and erases in container output',
    kind: 'outcome',
    message:
      'Shown without them: colours (SGR), CR, LF, TAB and backspace pass; OSC, DCS, APC, PM, SOS and every other escape or control are dropped, also when split across chunks. Attach Shell stays a raw TTY',
  },
  {
    id: 'workspace-engine-host',
    category: 'Untrusted settings, transports and output',
    action: 'open a folder',
    input: '.vscode/settings.json setting berth.engine.host or berth.engines',
    kind: 'outcome',
    message:
      'Not contacted, not made current and given no credentials until you agree in a prompt naming the host, the setting and the file (remembered per workspace and host); in Restricted Mode never used',
  },
];
