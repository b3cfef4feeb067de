// The bad-input rows of the hardening work (issue 17): untrusted transports, workspace settings and container output.
// Joined to the table in bad-input-cases.ts; asserted by bad-input-security.test.ts (against the real dockerd) and,
// for the workspace's engine, by the integration suite's workspace-trust tests.
import type { BadInputCase } from '../bad-input-cases';

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
    id: 'build-credentials-plain-tcp',
    category: 'Untrusted settings, transports and output',
    action: 'build (private base image, signed in)',
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
  {
    id: 'workspace-run-network',
    category: 'Untrusted settings, transports and output',
    action: 'Run Container / Run in Background',
    input: '.vscode/settings.json setting berth.run.network to host, container:<name> or a named network',
    kind: 'outcome',
    message:
      'Not applied silently: the run asks first, naming the value and the settings file, and runs with it or with your own berth.run.network (the engine\'s default when you set none); dismissing the question cancels the run. A network given to the run itself, or none, is not asked about',
  },
  {
    id: 'registry-endless-pages',
    category: 'Unbounded input',
    action: 'Registries view: list a catalog or tags',
    input: 'a registry whose every page links to a fresh next page',
    kind: 'error',
    errorKind: 'protocol',
    message: "The registry <registry> sent more than <max> pages for the catalog, each linking to another; Berth stops following them there. Ask the registry's operator to check its paging",
  },
  {
    id: 'registry-empty-pages',
    category: 'Unbounded input',
    action: 'Registries view: list a catalog or tags',
    input: 'a registry that sends empty pages, each with a fresh next link',
    kind: 'outcome',
    message: 'No message: the listing ends at the first empty page, whatever link it carries; the link is not followed',
  },
  {
    id: 'registry-endless-body',
    category: 'Unbounded input',
    action: 'Registries view: list a catalog or tags',
    input: 'a registry whose answer never ends',
    kind: 'error',
    errorKind: 'protocol',
    message: "The registry's answer to GET <registry>/v2/_catalog is larger than 16 MiB; Berth stops reading it. A registry answers a listing page in a few KiB: check that the address is a registry",
  },
  {
    id: 'registry-stalled',
    category: 'Unbounded input',
    action: 'Registries view: list a catalog or tags',
    input: 'a registry that sends its headers and then nothing (listing time 60 s; <seconds> in the test)',
    kind: 'error',
    errorKind: 'unreachable',
    message: 'The registry <registry> did not finish listing the catalog within <seconds> s. The registry is slow or keeps its answer open; try again later',
  },
  {
    id: 'engine-endless-json-line',
    category: 'Unbounded input',
    action: 'events / pull / push / build / stats',
    input: 'an engine that sends a JSON line without a line break, without end',
    kind: 'error',
    errorKind: 'protocol',
    message: 'The engine sent a JSON line longer than 16 MiB without a line break; Berth stopped reading the stream. The engine or something between it and Berth is misbehaving; check the engine host',
  },
  {
    id: 'engine-endless-body',
    category: 'Unbounded input',
    action: 'any call answered in one piece (ps, images, inspect)',
    input: 'an engine whose answer never ends',
    kind: 'error',
    errorKind: 'protocol',
    message: "The engine's answer is larger than 64 MiB; Berth stopped reading it. An engine answers a call like this in a few MiB: check that the host is an engine, or narrow the call (filters)",
  },
  {
    id: 'engine-huge-error-frame',
    category: 'Unbounded input',
    action: 'logs / run / attach',
    input: 'a stream error frame (type 3) announcing 2 GiB',
    kind: 'error',
    errorKind: 'protocol',
    message: 'The engine sent an error frame of 2147483648 bytes, more than the 1 MiB an error message may have; Berth refused it. The engine or something between it and Berth is misbehaving; check the engine host',
  },
];
