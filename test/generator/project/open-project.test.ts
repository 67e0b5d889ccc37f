/**
 * The build API every front end uses (`generator/project/`), on real files in a temp project: a document compiled from
 * text is the file the build compiles, positions and all; a check reports per file what the build reports; an
 * unchanged file is neither compiled nor printed again; unsaved buffers stand in for files; a build run writes and
 * then replays; the source watch calls back once per burst of saves and never runs twice at once.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planBuild } from '../../../generator/project/plan-build.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { openProject, type SopProject } from '../../../generator/project/open-project.js';
import { watchSources } from '../../../generator/project/watch-sources.js';
import { compileSop } from '../../../generator/compile-sop.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

let dir: string;
let project: SopProject;
const sop = (name: string) => join(dir, 'sops', name);
const REPO_SOPS = ['retail_customer_support.md', 'it_helpdesk_password_reset.md'];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sop-project-'));
  mkdirSync(join(dir, 'sops'));
  for (const name of REPO_SOPS) writeFileSync(sop(name), readFileSync(join(PROJECT_ROOT, 'sops', name)));
  writeFileSync(sop('demo.md'), BASE_SOP);
  writeFileSync(sop('broken.md'), withLine(19, '### ASKK').replace('agent: demo', 'agent: broken'));
  project = openProject({ root: dir, sopsDir: join(dir, 'sops'), outDir: join(dir, 'generated'), paths: false });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openProject', () => {
  it('compiles a document from text exactly as the build compiles the file, positions included', async () => {
    const sources = project.readSources();
    expect(sources.map((s) => s.file)).toEqual([
      'sops/broken.md',
      'sops/demo.md',
      'sops/it_helpdesk_password_reset.md',
      'sops/retail_customer_support.md',
    ]);
    const build = await planBuild(sources);
    for (const source of sources) {
      const document = await project.compileDocument(source.file, source.raw);
      expect(document.compiled).toEqual(build.compiled.find((c) => c.file === source.file));
      expect(document.compiled).toEqual(compileDocument(source.file, source.raw).compiled);
      expect(document.parsed?.flowchart?.ast.nodes.length ?? 0).toBeGreaterThan(0);
    }
    const broken = (await project.compileDocument('sops/broken.md', sources[0]!.raw)).compiled.diagnostics;
    expect(broken[0]).toMatchObject({ code: 'SOP020', file: 'sops/broken.md', line: 19, column: 1, remediation: 'Did you mean `ASK`?' });
  });

  it('checks every file as the build reports it: own, cross-file and token-budget diagnostics', async () => {
    writeFileSync(sop('twin.md'), BASE_SOP); // a second `agent: demo`: SOP032 in both files
    const sources = project.readSources();
    const [check, build] = await Promise.all([project.check(sources), planBuild(sources)]);
    for (const { file } of sources) expect(check.diagnostics.get(file), file).toEqual(build.diagnostics.filter((d) => d.file === file));
    expect(check.diagnostics.get('sops/twin.md')?.map((d) => d.code)).toContain('SOP032');
    // The retail SOP declares a token budget: the check measured it as the build did (no SOP058: the tokenizer is there).
    expect(build.diagnostics.some((d) => d.code === 'SOP058')).toBe(false);
  });

  it('says after each edit what the build says, the cross-file checks skipped only where they cannot change', async () => {
    writeFileSync(sop('twin.md'), BASE_SOP); // SOP032 in demo.md and twin.md
    const CALLER = [
      '---',
      'agent: caller',
      'version: "1.0"',
      'tools: []',
      '---',
      '',
      '## SOP Flowchart',
      '```mermaid',
      'flowchart TD',
      '    START([Start]) --> CALL[[Call it]]',
      '    CALL -->|done| END([End])',
      '```',
      '',
      '## Node Prompts',
      '',
      '### CALL',
      '```yaml',
      'subflow: callee',
      '```',
      '',
    ].join('\n');
    writeFileSync(sop('caller.md'), CALLER);
    writeFileSync(sop('callee.md'), BASE_SOP.replace('agent: demo', 'agent: callee'));
    const open = new Map<string, string>();
    const agree = async (what: string) => {
      const sources = project.readSources(open);
      const [check, build] = await Promise.all([project.check(sources), planBuild(sources)]);
      for (const { file } of sources)
        expect(check.diagnostics.get(file), `${what}: ${file}`).toEqual(build.diagnostics.filter((d) => d.file === file));
      return check;
    };
    await agree('at first');
    // A prompt of a file no sub-flow touches: the cross-file findings stay, at the same places.
    open.set('sops/twin.md', BASE_SOP.replace('Ask the question.', 'Ask the question twice.'));
    expect((await agree('a prompt edited')).diagnostics.get('sops/twin.md')?.map((d) => d.code)).toEqual(['SOP032']);
    // Lines added above the agent: SOP032 moves with it.
    open.set('sops/twin.md', `---\n${BASE_SOP.slice(4).replace('agent: demo', 'description: x\nagent: demo')}`);
    expect((await agree('a line above the agent')).diagnostics.get('sops/twin.md')?.[0]).toMatchObject({ code: 'SOP032', line: 3 });
    // The agent renamed: no longer a twin.
    open.set('sops/twin.md', BASE_SOP.replace('agent: demo', 'agent: twin'));
    expect((await agree('the agent renamed')).diagnostics.get('sops/demo.md')).toEqual([]);
    // The callee edited: its caller is checked again (its terminal renamed and relabelled: the call's edge maps no terminal).
    open.set('sops/callee.md', BASE_SOP.replace('agent: demo', 'agent: callee').replace('DONE([Done])', 'FINISHED([Finished])'));
    expect((await agree('the callee edited')).diagnostics.get('sops/caller.md')?.map((d) => d.code)).toContain('SOP074');
    open.set('sops/callee.md', BASE_SOP.replace('agent: demo', 'agent: callee'));
    expect((await agree('the callee back')).diagnostics.get('sops/caller.md')).toEqual([]);
  });

  it('compiles and prints only what changed', async () => {
    const first = await project.plan(project.readSources());
    const again = await project.plan(project.readSources());
    expect(again.outputs).toEqual(first.outputs);
    const graph = (b: typeof first) => b.outputs.find((f) => f.path === 'demo/graph.ts');
    const retail = (b: typeof first) => b.outputs.find((f) => f.path === 'retail_customer_support/graph.ts');
    expect(graph(again)).toBe(graph(first)); // the very same printed file: not printed again
    expect(again.compiled.find((c) => c.file === 'sops/demo.md')).toBe(first.compiled.find((c) => c.file === 'sops/demo.md'));

    writeFileSync(sop('demo.md'), BASE_SOP.replace('Ask the question.', 'Ask it twice.'));
    const edited = await project.plan(project.readSources());
    expect(graph(edited)).not.toBe(graph(first));
    expect(graph(edited)?.content).toContain('Ask it twice.');
    expect(retail(edited)).toBe(retail(first));
    const check = await project.check(project.readSources());
    expect(check.compiled.get('sops/demo.md')).toBe(edited.compiled.find((c) => c.file === 'sops/demo.md'));
  });

  it('lets unsaved buffers stand in for files, and adds a SOP not saved yet', () => {
    const open = new Map([
      ['sops/demo.md', BASE_SOP.replace('Helps.', 'Helps a lot.')],
      ['sops/new.md', BASE_SOP.replace('agent: demo', 'agent: fresh')],
      ['notes/elsewhere.md', BASE_SOP],
    ]);
    const sources = project.readSources(open);
    expect(sources.map((s) => s.file)).toEqual([
      'sops/broken.md',
      'sops/demo.md',
      'sops/it_helpdesk_password_reset.md',
      'sops/new.md',
      'sops/retail_customer_support.md',
    ]);
    expect(sources.find((s) => s.file === 'sops/demo.md')?.raw).toContain('Helps a lot.');
    expect(project.fileOf(sop('demo.md'))).toBe('sops/demo.md');
    expect(project.isSource(sop('x.md'))).toBe(true);
    expect(project.isSource(join(dir, 'x.md'))).toBe(false);
  });

  it('runs a build that writes, then replays it while nothing changes, and checks the output', async () => {
    const written = await project.build({ check: false, useCache: true, report: false });
    expect(written.kind).toBe('written');
    if (written.kind !== 'written') return;
    expect(written.complete).toBe(false); // broken.md is not emitted
    expect(written.comparison.missing).toContain('demo/graph.ts');
    const replayed = await openProject(project.layout).build({ check: false, useCache: true, report: true });
    expect(replayed.kind).toBe('up-to-date');
    if (replayed.kind !== 'up-to-date') return;
    expect(replayed.diagnostics).toEqual(written.diagnostics);
    expect(replayed.tokens?.map((t) => t.agent)).toEqual(['demo', 'it_helpdesk', 'retail_customer_support']);
    const checked = await project.build({ check: true, useCache: true, report: false });
    expect(checked).toMatchObject({ kind: 'checked', comparison: { stale: [], missing: [], orphaned: [] } });
  });

  it('agrees with compileSop, which the workers and the bench call', () => {
    const text = readFileSync(sop('retail_customer_support.md'), 'utf8');
    expect(compileDocument('sops/retail_customer_support.md', text).compiled).toEqual(compileSop('sops/retail_customer_support.md', text));
  });
});

describe('watchSources', () => {
  it('calls back once per burst of saves, with the files that changed, and never twice at once', async () => {
    const calls: (readonly string[])[] = [];
    let running = 0;
    let overlapped = false;
    const watch = watchSources(
      join(dir, 'sops'),
      async (names) => {
        running += 1;
        overlapped ||= running > 1;
        calls.push(names);
        await new Promise((r) => setTimeout(r, 150));
        running -= 1;
      },
      { settleMs: 50 },
    );
    try {
      writeFileSync(sop('demo.md'), `${BASE_SOP}\n`);
      writeFileSync(sop('demo.md'), `${BASE_SOP}\n\n`);
      writeFileSync(sop('notes.txt'), 'not a SOP');
      for (let i = 0; i < 100 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      writeFileSync(sop('broken.md'), BASE_SOP); // while the first call runs
      for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(calls).toEqual([['demo.md'], ['broken.md']]);
      expect(overlapped).toBe(false);
    } finally {
      watch.close();
    }
  });
});
