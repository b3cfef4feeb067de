import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareFormat, renderFormatted, tabwrite } from '../../../src/cli/formatOption';
import { executeTemplate } from '../../../src/cli/templateExecute';
import { parseTemplate, TemplateError } from '../../../src/cli/template';
import { sprintf } from '../../../src/cli/templateFunctions';

const run = (template: string, dot: unknown): string => executeTemplate(parseTemplate(template), dot as never);

void describe("docker's Go-template subset", () => {
  void it('reads fields, map keys, pipelines, functions and control structures as Go does', () => {
    const dot = { Name: 'web', Labels: { b: '2', a: '1' }, List: ['x', 'y'], Empty: '', Nested: { Deep: 3 } };
    assert.equal(run('{{.Name}} {{.Nested.Deep}} {{.Missing}} {{.Labels}} {{.List}}', dot), 'web 3 <no value> map[a:1 b:2] [x y]');
    assert.equal(run('{{.Name | upper}} {{join .List ","}} {{json .Labels}} {{truncate .Name 2}} {{printf "%5s|%-4d|" .Name 7}}', dot), 'WEB x,y {"b":"2","a":"1"} we   web|7   |');
    assert.equal(run('{{range $i, $v := .List}}{{$i}}={{$v}};{{end}}{{if .Empty}}yes{{else if .Name}}name{{end}}', dot), '0=x;1=y;name');
    assert.equal(run('{{with .Nested}}{{.Deep}}{{end}} {{range .Labels}}{{.}}{{end}} {{- "  kept" -}}  !', dot), '3 12  kept!');
    assert.equal(run('{{index .Labels "a"}} {{len .List}} {{eq .Name "web"}} {{not .Empty}} {{/* a comment */}}', dot), '1 2 true true ');
  });

  void it('refuses a bad template with Go\'s words, as a TemplateError (a refusal, not a crash)', () => {
    const refusals: Array<[string, string]> = [
      ['{{.ID', 'template: :1: unclosed action'],
      ['{{nosuch .ID}}', 'template: :1: function "nosuch" not defined'],
      ['{{if .A}}', 'template: :1: unexpected EOF'],
      ['a {{end}}', 'template: :1: unexpected {{end}}'],
      ['{{"open}}', 'template: :1: unterminated quoted string'],
      ['{{}}', 'template: :1: missing value for command'],
    ];
    for (const [template, message] of refusals) assert.throws(() => parseTemplate(template), (error: unknown) => error instanceof TemplateError && error.message === message, template);
  });

  void it('bounds nesting and length, so a hostile template cannot exhaust the stack or the memory', () => {
    assert.throws(() => parseTemplate('{{if 1}}'.repeat(5_000)), /nesting deeper than 100 levels/);
    assert.throws(() => parseTemplate(`{{${'('.repeat(1_000)}1${')'.repeat(1_000)}}}`), /nesting deeper than 100 levels/);
    assert.throws(() => parseTemplate('x'.repeat(70_000)), /template is longer than 65536 characters/);
    assert.throws(() => run('{{printf "%99999999s" "x"}}', {}), /width 99999999 is larger than 10000/);
  });

  void it('parses in one pass: 4,000 actions parse and run into 4,000 values', () => {
    const template = '{{.A}}'.repeat(4_000);
    assert.equal(run(template, { A: 'z' }), 'z'.repeat(4_000));
  });

  void it("formats numbers and strings as Go's printf does, with its markers for what does not fit", () => {
    assert.equal(sprintf('%s=%d %05d %.2f %q %x %%', ['a', 3, 42, 1.5, 'q"', 255]), 'a=3 00042 1.50 "q\\"" ff %');
    assert.equal(sprintf('%d %s', ['text']), '%!d(string=text) %!s(MISSING)');
  });
});

void describe("docker's tabwriter and --format modes", () => {
  void it('aligns tab-terminated cells in column blocks (minwidth 10, padding 3); text after the last tab is free', () => {
    assert.equal(tabwrite('A\tB\tC\nlonger-than-ten\tx\ty\n\nsolo'), 'A                 B         C\nlonger-than-ten   x         y\n\nsolo');
    assert.equal(tabwrite('a\tb\nc\nlong-cell-here\td'), 'a         b\nc\nlong-cell-here   d');
  });

  void it('stays linear in the cells however many tabs a value holds', () => {
    const line = `${'x\t'.repeat(20_000)}end`;
    assert.equal(tabwrite(line).length, 20_000 * 10 + 3);
  });

  const item = {
    typeName: '*formatter.TestContext',
    has: (name: string) => name === 'ID' || name === 'Name',
    field: (name: string) => (name === 'ID' ? 'abc' : '<web>'),
    toJson: () => ({ ID: 'abc', Name: '<web>' }),
  };
  const target = { headers: { ID: 'ID HEADER', Name: 'NAME' }, items: [item] };

  void it('table with headers, json with escaped HTML one object a line, and bare templates', () => {
    assert.equal(renderFormatted(prepareFormat('table {{.ID}}\\t{{lower .Name}}', ''), target), 'ID HEADER   NAME\nabc         <web>\n');
    assert.equal(renderFormatted(prepareFormat('table', '{{.Name}}'), target), 'NAME\n<web>\n');
    assert.equal(renderFormatted(prepareFormat('json', ''), target), '{"ID":"abc","Name":"\\u003cweb\\u003e"}\n');
    assert.equal(renderFormatted(prepareFormat('{{.ID}}:{{.Name}}\\n', ''), target), 'abc:<web>\n\n');
    assert.throws(() => renderFormatted(prepareFormat('{{.Nope}}', ''), target), /template parsing error: .*can't evaluate field Nope in type \*formatter\.TestContext\. The fields are \.ID, \.Name$/);
  });
});
