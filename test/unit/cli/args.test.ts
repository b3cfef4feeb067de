import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../src/cli/args';
import type { Command } from '../../../src/cli/commands';
import { parseCommandLine, type Invocation } from '../../../src/cli/parse';
import { describeFailure } from '../../../src/cli/failure';
import { InvalidReferenceError, parseTail, splitRepositoryTag } from '../../../src/cli/values';
import { helpText } from '../../../src/cli/help';

function commandOf(invocation: Invocation): Command {
  assert.equal(invocation.kind, 'command');
  return invocation.command;
}

function usageErrorOf(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(argv)} to be refused`);
}

void describe('berth run arguments', () => {
  void it('parses every run flag, repeated -e and -l, and keeps options after IMAGE for the command', () => {
    const command = commandOf(
      parseCommandLine([
        'run', '-d', '--rm', '--name', 'web', '--network=none', '-e', 'A=1', '-eB=2', '--env', 'C', '-l', 'team=x',
        '-p', '8080:80', '-p127.0.0.1::81', '-v', '/a:/b:ro', '--env-file', 'app.env', '-w', '/w', '--entrypoint', 'sh', '-u', '1000:1000', '--restart=on-failure:2',
        'busybox', 'sh', '-c', 'echo -d --rm',
      ]),
    );
    assert.deepEqual(command, {
      name: 'run',
      options: {
        image: 'busybox',
        cmd: ['sh', '-c', 'echo -d --rm'],
        detach: true,
        tty: false,
        interactive: false,
        autoRemove: true,
        name: 'web',
        network: 'none',
        env: ['A=1', 'B=2', 'C'],
        labels: { team: 'x' },
        ports: ['8080:80', '127.0.0.1::81'],
        volumes: ['/a:/b:ro'],
        envFiles: ['app.env'],
        workdir: '/w',
        entrypoint: 'sh',
        user: '1000:1000',
        restart: 'on-failure:2',
      },
    });
  });

  void it('stacks short booleans (-dt) and accepts --flag=false', () => {
    const stacked = commandOf(parseCommandLine(['run', '-dt', 'img']));
    assert.equal(stacked.name === 'run' && stacked.options.detach && stacked.options.tty, true);
    const negated = commandOf(parseCommandLine(['run', '--rm=false', '--tty=true', 'img']));
    assert.equal(negated.name === 'run' && !negated.options.autoRemove && negated.options.tty, true);
  });

  void it('a value flag takes the next argument even when it starts with a dash', () => {
    const command = commandOf(parseCommandLine(['run', '--name', '-odd', 'img']));
    assert.equal(command.name === 'run' && command.options.name, '-odd');
  });

  void it('-- ends the options', () => {
    const command = commandOf(parseCommandLine(['run', '--', '-img-', 'x']));
    assert.deepEqual(command.name === 'run' && [command.options.image, command.options.cmd], ['-img-', ['x']]);
  });

  void it('refuses unknown flags, missing values, bad booleans and a missing IMAGE with specific messages', () => {
    assert.equal(usageErrorOf(['run', '--frobnicate', 'img']), "unknown flag: --frobnicate. See 'berth run --help'.");
    assert.equal(usageErrorOf(['run', '-dx', 'img']), "unknown shorthand flag: 'x' in -dx. See 'berth run --help'.");
    assert.equal(usageErrorOf(['run', '--name']), "flag needs an argument: --name. See 'berth run --help'.");
    assert.equal(usageErrorOf(['run', '-e']), "flag needs an argument: 'e' in -e. See 'berth run --help'.");
    assert.equal(usageErrorOf(['run', '--rm=maybe', 'img']), `invalid argument "maybe" for "--rm" flag: expected true or false. See 'berth run --help'.`);
    assert.equal(usageErrorOf(['run', '-d']), `"berth run" requires at least 1 argument. See 'berth run --help'.`);
    assert.equal(usageErrorOf(['run', '-e', '=x', 'img']), 'invalid environment variable "=x": expected KEY=VALUE or KEY.');
    assert.equal(usageErrorOf(['run', '--name', ' ', 'img']), '--name needs a non-empty value.');
    assert.equal(usageErrorOf(['run', '-l', '=x', 'img']), 'invalid --label "=x": expected KEY=VALUE.');
  });
});

void describe('berth global options and commands', () => {
  void it('takes -H / --host / --host= before the command', () => {
    for (const argv of [['-H', 'unix:///x.sock', 'ps'], ['--host', 'unix:///x.sock', 'ps'], ['--host=unix:///x.sock', 'ps'], ['-Hunix:///x.sock', 'ps']]) {
      const invocation = parseCommandLine(argv);
      assert.equal(invocation.kind === 'command' && invocation.global.host, 'unix:///x.sock', argv.join(' '));
    }
    const withoutHost = parseCommandLine(['ps']);
    assert.equal(withoutHost.kind === 'command' && withoutHost.global.host, undefined);
  });

  void it('refuses an unknown command and a global flag after the command', () => {
    assert.equal(usageErrorOf(['frob']), "'frob' is not a berth command. See 'berth help'.");
    assert.equal(usageErrorOf(['ps', '-H', 'x']), "unknown shorthand flag: 'H' in -H. See 'berth ps --help'.");
    assert.equal(usageErrorOf(['--nope', 'ps']), "unknown flag: --nope. See 'berth --help'.");
    assert.equal(usageErrorOf(['--host']), "flag needs an argument: --host. See 'berth --help'.");
    assert.equal(usageErrorOf(['--host=', 'ps']), '--host needs a value, e.g. unix:///run/docker.sock.');
  });

  void it('routes help, --help, -h and per-command help', () => {
    assert.deepEqual(parseCommandLine([]), { kind: 'help', topic: undefined });
    assert.deepEqual(parseCommandLine(['--help']), { kind: 'help', topic: undefined });
    assert.deepEqual(parseCommandLine(['help']), { kind: 'help', topic: undefined });
    assert.deepEqual(parseCommandLine(['help', 'logs']), { kind: 'help', topic: 'logs' });
    assert.deepEqual(parseCommandLine(['stop', '--help']), { kind: 'help', topic: 'stop' });
    assert.deepEqual(parseCommandLine(['ps', '-h']), { kind: 'help', topic: 'ps' });
    assert.equal(usageErrorOf(['help', 'frob']), "no help for 'frob': it is not a berth command. See 'berth help'.");
  });

  void it('help lists every command and each flag the parser accepts', () => {
    const overview = helpText(undefined);
    for (const name of ['run', 'ps', 'stop', 'stop-all', 'logs', 'images', 'pull', 'commit', 'wait', 'version']) {
      assert.match(overview, new RegExp(`^  ${name} `, 'm'));
    }
    assert.match(helpText('run'), /^Usage: {2}berth run \[OPTIONS\] IMAGE \[COMMAND\] \[ARG\.\.\.\]$/m);
    assert.match(helpText('run'), /^ {2}-e, --env KEY=VALUE {2,}Set an environment variable/m);
    assert.match(helpText('stop'), /-t, --time SECONDS/);
  });

  void it('parses ps, stop, stop-all, logs, images, pull, wait and version', () => {
    assert.deepEqual(commandOf(parseCommandLine(['ps', '-a', '--json', '-f', 'label=berth.test=1', '--filter', 'status=exited'])), {
      name: 'ps',
      options: { all: true, json: true, format: undefined, quiet: false, noTrunc: false, filters: { label: ['berth.test=1'], status: ['exited'] }, last: undefined, size: false },
    });
    assert.deepEqual(commandOf(parseCommandLine(['stop', '-t', '0', 'a', 'b'])), { name: 'stop', options: { ids: ['a', 'b'], timeoutSeconds: 0, stopSignal: undefined } });
    assert.deepEqual(commandOf(parseCommandLine(['stop', 'a'])), { name: 'stop', options: { ids: ['a'], timeoutSeconds: undefined, stopSignal: undefined } });
    assert.deepEqual(commandOf(parseCommandLine(['stop', '-s', 'SIGUSR1', 'a'])), { name: 'stop', options: { ids: ['a'], timeoutSeconds: undefined, stopSignal: 'SIGUSR1' } });
    assert.deepEqual(commandOf(parseCommandLine(['stop-all', '--time=3', '-f', 'label=x'])), {
      name: 'stop-all',
      options: { timeoutSeconds: 3, filters: { label: ['x'] } },
    });
    assert.deepEqual(commandOf(parseCommandLine(['logs', '-f', '--tail', '5', '-t', 'abc'])), {
      name: 'logs',
      options: { ids: ['abc'], follow: true, tail: 5, timestamps: true, since: undefined, until: undefined, details: false, noColor: false, noLogPrefix: false },
    });
    assert.deepEqual(commandOf(parseCommandLine(['logs', '-n', 'all', '--since', '10m', '--until=2024-05-01', '--details', 'abc'])), {
      name: 'logs',
      options: { ids: ['abc'], follow: false, tail: 'all', timestamps: false, since: '10m', until: '2024-05-01', details: true, noColor: false, noLogPrefix: false },
    });
    assert.deepEqual(commandOf(parseCommandLine(['images', '--json'])), { name: 'images', options: { all: false, digests: false, json: true, format: undefined, quiet: false, filters: {} } });
    assert.deepEqual(commandOf(parseCommandLine(['images', '-q'])), { name: 'images', options: { all: false, digests: false, json: false, format: undefined, quiet: true, filters: {} } });
    assert.deepEqual(commandOf(parseCommandLine(['images', '-f', 'dangling=false', '-f', 'reference=a*', 'app:1'])), {
      name: 'images',
      options: { all: false, digests: false, json: false, format: undefined, quiet: false, filters: { dangling: ['false'], reference: ['a*', 'app:1'] } },
    });
    for (const [argv, last] of [
      [['ps', '-l'], 1],
      [['ps', '-n', '3'], 3],
      [['ps', '-n', '3', '-l'], 3],
      [['ps', '-n', '-1'], undefined],
    ] as const) {
      const parsed = commandOf(parseCommandLine([...argv]));
      assert.equal((parsed.options as { last?: number }).last, last, argv.join(' '));
    }
    assert.equal(usageErrorOf(['ps', '-n', 'x']), 'invalid argument "x" for "-n, --last" flag: expected a whole number.');
    assert.deepEqual(commandOf(parseCommandLine(['images', '--format', '{{.ID}}'])), { name: 'images', options: { all: false, digests: false, json: false, format: '{{.ID}}', quiet: false, filters: {} } });
    assert.deepEqual(commandOf(parseCommandLine(['pull', '127.0.0.1:5055/a/b:1'])), { name: 'pull', options: { image: '127.0.0.1:5055/a/b:1' } });
    assert.deepEqual(commandOf(parseCommandLine(['wait', 'abc'])), { name: 'wait', options: { ids: ['abc'] } });
    assert.deepEqual(commandOf(parseCommandLine(['wait', 'a', 'b'])), { name: 'wait', options: { ids: ['a', 'b'] } });
    for (const argv of [['volume'], ['network', '--help'], ['help', 'compose']]) {
      assert.deepEqual(parseCommandLine(argv), { kind: 'group-help', group: argv.find((word) => word !== 'help' && !word.startsWith('-')) }, argv.join(' '));
    }
    assert.equal(usageErrorOf(['volume', 'bogus']), "'volume bogus' is not a berth command. See 'berth help'.");
    assert.deepEqual(parseCommandLine(['--version']), { kind: 'version' });
    assert.deepEqual(parseCommandLine(['-v', 'ps']), { kind: 'version' });
    const interactive = commandOf(parseCommandLine(['run', '-it', 'img', 'sh']));
    assert.equal(interactive.name === 'run' && interactive.options.interactive && interactive.options.tty, true);
    assert.deepEqual(commandOf(parseCommandLine(['version'])), { name: 'version', options: {} });
  });

  void it('refuses bad numbers and wrong argument counts', () => {
    assert.equal(usageErrorOf(['stop', '-t', 'soon', 'a']), 'invalid value "soon" for --time: expected a whole number of seconds (-1 waits without limit).');
    assert.equal(usageErrorOf(['stop', '-t', '1.5', 'a']), 'invalid value "1.5" for --time: expected a whole number of seconds (-1 waits without limit).');
    assert.equal(usageErrorOf(['stop', '-t', '5', '--timeout', '6', 'a']), '--time 5 and --timeout 6 disagree: give one of them.');
    for (const [argv, timeoutSeconds] of [
      [['stop', '-t', '-1', 'a'], -1],
      [['stop', '--timeout', '3', 'a'], 3],
      [['stop', '--time=3', '--timeout', '3', 'a'], 3],
      [['stop-all', '--timeout', '-5'], -1],
    ] as const) {
      const parsed = commandOf(parseCommandLine([...argv]));
      assert.equal((parsed.options as { timeoutSeconds?: number }).timeoutSeconds, timeoutSeconds, argv.join(' '));
    }
    assert.equal(usageErrorOf(['stop']), `"berth stop" requires at least 1 argument. See 'berth stop --help'.`);
    assert.equal(usageErrorOf(['wait']), `"berth wait" requires at least 1 argument. See 'berth wait --help'.`);
    assert.equal(usageErrorOf(['logs']), `"berth logs" requires at least 1 argument. See 'berth logs --help'.`);
    assert.equal(usageErrorOf(['ps', 'extra']), `"berth ps" accepts no arguments. See 'berth ps --help'.`);
    assert.equal(usageErrorOf(['commit']), `"berth commit" requires at least 1 and at most 2 arguments. See 'berth commit --help'.`);
    assert.equal(usageErrorOf(['ps', '-f', 'label']), 'invalid filter "label": expected KEY=VALUE, e.g. label=team=a or status=exited.');
  });
});

void describe('berth commit arguments', () => {
  void it('splits REPO[:TAG] at the last colon after the last slash, so a registry port is not a tag', () => {
    assert.deepEqual(splitRepositoryTag('127.0.0.1:5055/team/app'), { repo: '127.0.0.1:5055/team/app', tag: undefined });
    assert.deepEqual(splitRepositoryTag('127.0.0.1:5055/team/app:2.0'), { repo: '127.0.0.1:5055/team/app', tag: '2.0' });
    assert.deepEqual(splitRepositoryTag('app:latest'), { repo: 'app', tag: 'latest' });
  });

  void it('parses flags and refuses a digest, an empty tag and upper case', () => {
    assert.deepEqual(commandOf(parseCommandLine(['commit', '-m', 'msg', '-a', 'Me', '-c', 'CMD ["sh"]', '--change', 'ENV A=1', 'abc', 'repo/x:1'])), {
      name: 'commit',
      options: { id: 'abc', repo: 'repo/x', tag: '1', message: 'msg', author: 'Me', changes: ['CMD ["sh"]', 'ENV A=1'] },
    });
    // Not usage mistakes: docker exits 1 for an invalid reference, not 125.
    const refused = (argv: string[]): string => {
      const error = (() => {
        try {
          parseCommandLine(argv);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      assert.ok(error instanceof InvalidReferenceError, `expected an InvalidReferenceError, got ${String(error)}`);
      assert.equal(describeFailure(error, false).exitCode, 1);
      return error.message;
    };
    assert.equal(refused(['commit', 'abc', 'x@sha256:00']), 'invalid reference "x@sha256:00": a commit gets a tag, not a digest.');
    assert.equal(refused(['commit', 'abc', 'x:']), 'invalid reference "x:": expected REPOSITORY[:TAG].');
    assert.equal(refused(['commit', 'abc', 'Repo']), 'invalid reference "Repo": repository names must be lowercase.');
  });
});

void describe('berth logs --tail', () => {
  void it('reads a value that is not a whole number as "all", as docker\'s engine does', () => {
    assert.equal(parseTail('5'), 5);
    assert.equal(parseTail('0'), 0);
    for (const text of ['all', 'abc', '-1', '1.5', '']) assert.equal(parseTail(text), 'all', text);
    assert.equal(parseTail(undefined), undefined);
  });
});
