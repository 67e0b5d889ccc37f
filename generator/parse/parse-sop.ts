/**
 * The parse stage for one SOP file: text → frontmatter, sections, the flowchart AST and node prompts, all with
 * positions in the `.md` file; the diagnostics found on the way go to a sink. Pure: no I/O, never throws on bad input.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type SourcePosition, type SourceSpan } from '../diagnostics/diagnostic.js';
import type { BlockSpan, FlowchartAst } from './flowchart/ast.js';
import { parseFlowchart } from './flowchart/parse-flowchart.js';
import { parseFrontmatter, type Frontmatter } from './frontmatter.js';
import { LIMITS } from '../limits.js';
import {
  codeContentStart,
  findSection,
  findSectionStartingWith,
  parseMarkdownOutline,
  spanOf,
  type MarkdownSection,
} from './markdown-sections.js';
import { type MentionCandidate, scanMentions } from './mentions.js';
import { parseNodePrompts, type NodePromptsResult } from './node-prompts.js';
import { splitFrontmatter } from './split-frontmatter.js';
import { sourceText, type SourceText } from './source-text.js';
import { parseYamlBlock, type ReadYaml, type YamlBlock } from './yaml-block.js';

export interface ParsedFlowchart {
  readonly source: string;
  readonly span: SourceSpan;
  readonly ast: FlowchartAst;
  /** Maps a block-relative span to the `.md` file. */
  readonly toFile: (span: BlockSpan) => SourceSpan;
}

export interface ParsedSop {
  readonly source: SourceText;
  readonly frontmatter: Frontmatter | null;
  /** The frontmatter's YAML, for positions of its keys (null when missing or not YAML). */
  readonly frontmatterYaml: YamlBlock | null;
  readonly sections: readonly MarkdownSection[];
  /** The sections that make up the system prompt (every level-2 section before `## Node Prompts`). */
  readonly systemPromptSections: readonly MarkdownSection[];
  readonly flowchart: ParsedFlowchart | null;
  readonly prompts: NodePromptsResult;
  /** Node ids as the text names them outside the flowchart (the system prompt's sections, the node prompts). */
  readonly mentions: readonly MentionCandidate[];
}

/**
 * Parses one file; the diagnostics found on the way go to `sink`. `readYaml` reads its YAML blocks (an editor's
 * compile reuses the blocks an edit left unchanged: `yaml/yaml-reuse.ts`).
 */
export function parseSop(file: string, raw: string, sink: DiagnosticSink, readYaml: ReadYaml = parseYamlBlock): ParsedSop {
  const source = sourceText(file, raw);
  const split = splitFrontmatter(source);
  const fm = parseFrontmatter(file, split.frontmatter, sink, readYaml);

  const outline = parseMarkdownOutline(source, split.body);
  if (outline.stopped) {
    // The outline covers the text before the limit only: checking it would report what the rest of the file holds.
    const { at, reason } = outline.stopped;
    const message =
      reason === 'blocks'
        ? `The file holds more than ${LIMITS.markdownBlocks.toLocaleString('en')} headings and code blocks; a SOP may hold at most ${LIMITS.markdownBlocks.toLocaleString('en')} (this is the first one over).`
        : `Block quotes and list items nest more than ${LIMITS.markdownNesting} deep here; a SOP may nest them at most ${LIMITS.markdownNesting} deep.`;
    sink.push(diagnosticAt(file, 'SOP092', at, message));
    return {
      source,
      frontmatter: fm.frontmatter,
      frontmatterYaml: fm.yaml,
      sections: [],
      systemPromptSections: [],
      flowchart: null,
      prompts: { form: 'none', prompts: [] },
      mentions: [],
    };
  }
  // Real files name it `## Node Prompts (Solo)` and the like: the first level-2 heading starting so counts.
  const promptsSection = findSectionStartingWith(outline, 'Node Prompts');
  const promptsIndex = promptsSection ? outline.sections.indexOf(promptsSection) : outline.sections.length;
  const systemPromptSections = outline.sections.slice(0, promptsIndex);
  // A missing section is a finding about the whole file: it is reported at its first line.
  const missingAt = { line: 1, column: 1 };

  const flowchartSection = findSection(outline, 'SOP Flowchart');
  const flowchart = readFlowchart(source, flowchartSection, missingAt, sink);

  let prompts: NodePromptsResult = { form: 'none', prompts: [] };
  if (promptsSection) prompts = parseNodePrompts(source, promptsSection, sink, fm.frontmatter?.tools ?? [], readYaml);
  else {
    sink.push(
      diagnosticAt(
        file,
        'SOP016',
        missingAt,
        'The file has no `## Node Prompts` section, so its nodes have no prompts (each is delivered with its label alone).',
      ),
    );
  }
  return {
    source,
    frontmatter: fm.frontmatter,
    frontmatterYaml: fm.yaml,
    sections: outline.sections,
    systemPromptSections,
    flowchart,
    prompts,
    mentions: mentionsOf(source, [...systemPromptSections, ...(promptsSection ? [promptsSection] : [])], flowchartSection),
  };
}

/** The candidates in the sections the agent reads, the flowchart's block left out (its ids are the graph itself). */
function mentionsOf(
  source: SourceText,
  read: readonly MarkdownSection[],
  flowchartSection: MarkdownSection | undefined,
): MentionCandidate[] {
  const block = flowchartSection?.children.find((c) => c.kind === 'code' && c.lang === 'mermaid');
  const skip = block === undefined ? [] : [{ start: block.start.offset, end: block.end.offset }];
  return scanMentions(
    source.text,
    read.map((s) => ({ start: s.start, end: s.end })),
    skip,
  );
}

function readFlowchart(
  source: SourceText,
  section: MarkdownSection | undefined,
  missingAt: SourcePosition,
  sink: DiagnosticSink,
): ParsedFlowchart | null {
  const file = source.file;
  if (!section) {
    sink.push(diagnosticAt(file, 'SOP010', missingAt, 'The file has no `## SOP Flowchart` section.'));
    return null;
  }
  const code = section.children.find((c) => c.kind === 'code' && c.lang === 'mermaid');
  if (code?.kind !== 'code') {
    sink.push(diagnosticAt(file, 'SOP011', section.headingSpan, 'The `## SOP Flowchart` section has no ```mermaid block.'));
    return null;
  }
  if (code.value.length > LIMITS.flowchartCharacters) {
    const size = code.value.length.toLocaleString('en');
    sink.push(
      diagnosticAt(
        file,
        'SOP092',
        spanOf(code),
        `The flowchart holds ${size} characters; it may hold at most ${LIMITS.flowchartCharacters.toLocaleString('en')}.`,
      ),
    );
    return null;
  }
  const at = codeContentStart(code);
  // A block position in the file; never past the block's end (an empty block at the end of the file has no line 1).
  const last = code.end;
  const place = (p: { line: number; column: number }): SourcePosition => {
    const line = p.line + at.line - 1;
    const column = p.column + at.column - 1;
    return line > last.line || (line === last.line && column > last.column) ? { line: last.line, column: last.column } : { line, column };
  };
  const toFile = (span: BlockSpan): SourceSpan => ({ start: place(span.start), end: place(span.end) });
  const result = parseFlowchart(code.value, at);
  for (const problem of result.problems) {
    sink.push(diagnosticAt(file, problem.code, toFile(problem.span), problem.message, problem.remediation));
  }
  if (!result.ast) return null;
  return { source: code.value, span: spanOf(code), ast: result.ast, toFile };
}
