// The bad-input rows of volumes, networks and prune (issue 13): what berth says, word for word, on the private
// dockerd. Asserted by test/engine/volumes/bad-input-storage.test.ts through the built CLI; part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const STORAGE_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'volume-in-use',
    category: 'Volumes, networks and prune',
    action: 'volume rm',
    input: 'a volume a container mounts',
    kind: 'error',
    errorKind: 'conflict',
    message: 'Volume <volume> is in use by container <container> (the engine said "remove <volume>: volume is in use - [<id>]"). Remove those containers first, then remove the volume',
  },
  {
    id: 'network-predefined',
    category: 'Volumes, networks and prune',
    action: 'network rm',
    input: 'none',
    kind: 'error',
    errorKind: 'unauthorized',
    message: 'none is a pre-defined network and cannot be removed. The engine keeps its predefined networks; remove only networks you created',
  },
  {
    id: 'network-endpoints',
    category: 'Volumes, networks and prune',
    action: 'network rm / Remove Network (Podman)',
    input: 'an internal network a created container is connected to',
    kind: 'error',
    errorKind: 'conflict',
    message:
      'Network <network> has endpoints: container <container> (the engine said ""<network>" has associated containers with it. Use -f to forcibly delete containers and pods: network is being used"). Disconnect those containers (or remove them) first, then remove the network',
  },
  {
    id: 'prune-nothing',
    category: 'Volumes, networks and prune',
    action: 'volume prune / container prune',
    input: '--filter label=<nothing matches>',
    kind: 'outcome',
    message: 'Nothing to remove (exit 0, no prompt); never "0B reclaimed" after a prompt',
  },
  {
    id: 'volume-bad-name',
    category: 'Volumes, networks and prune',
    action: 'volume create',
    input: 'bad/name',
    kind: 'error',
    errorKind: 'bad-request',
    message:
      'create bad/name: "bad/name" includes invalid characters for a local volume name, only "[a-zA-Z0-9][a-zA-Z0-9_.-]" are allowed. If you intended to pass a host directory, use absolute path. Names must start with a letter or digit and use only letters, digits, _ . and -',
  },
  {
    id: 'prune-bad-filter',
    category: 'Volumes, networks and prune',
    action: 'container prune / volume prune / any Prune … filter box',
    input: '--filter bogus=1',
    kind: 'error',
    errorKind: 'bad-request',
    message: "Invalid filter '<key>'. This prune accepts <accepted> (e.g. <examples>)",
  },
  {
    id: 'prune-until-volumes',
    category: 'Volumes, networks and prune',
    action: 'system prune --volumes / Prune Everything',
    input: '--filter until=24h',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'The "until" filter is not supported with volumes. Prune the volumes without it, or leave the volumes out',
  },
  {
    id: 'prune-label-not',
    category: 'Volumes, networks and prune',
    action: 'every prune',
    input: '--filter label!=keep',
    kind: 'outcome',
    message: 'No message: everything unused without the label keep is listed and removed, as docker does; what has it stays',
  },
  {
    id: 'prune-racing',
    category: 'Volumes, networks and prune',
    action: 'volume prune',
    input: 'another client prunes or removes the same volumes at the same time',
    kind: 'outcome',
    message: 'Both prunes succeed; each volume is reported removed once (each removes its planned volumes by name, and one another client removed first is not reported)',
  },
  {
    id: 'endpoint-missing',
    category: 'Volumes, networks and prune',
    action: 'system prune (build cache) on Podman 4',
    input: 'POST /build/prune',
    kind: 'error',
    errorKind: 'version',
    message:
      "Podman (API <version>) at <endpoint> has no POST /build/prune endpoint. This engine or its API version does not offer it; use a newer engine, or do it with the engine's own tools",
  },
];
