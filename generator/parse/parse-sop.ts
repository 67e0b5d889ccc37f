/**
 * The parse stage for one SOP file: text → frontmatter, sections, the flowchart AST and node prompts, all with
 * positions in the `.md` file, plus the diagnostics found on the way. Pure: no I/O, never throws on bad input.
 */
import { diagnosticAt, type Diagnostic, type SourceSpan } from '../diagnostics/diagnostic.js';
import type { BlockSpan, FlowchartAst } from './flowchart/ast.js';
import { parseFlowchart } from './flowchart/parse-flowchart.js';
import { parseFrontmatter, type Frontmatter } from './frontmatter.js';
import { codeContentStart, findSection, parseMarkdownOutline, spanOfNode, type MarkdownSection } from './markdown-sections.js';
import { parseNodePrompts, type NodePromptsResult } from './node-prompts.js';
import { splitFrontmatter } from './split-frontmatter.js';
import { sourceText, type SourceText } from './source-text.js';
import type { YamlBlock } from './yaml-block.js';

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
  readonly diagnostics: readonly Diagnostic[];
}

export function parseSop(file: string, raw: string): ParsedSop {
  const source = sourceText(file, raw);
  const diagnostics: Diagnostic[] = [];
  const split = splitFrontmatter(source);
  const fm = parseFrontmatter(file, split.frontmatter);
  diagnostics.push(...fm.diagnostics);

  const outline = parseMarkdownOutline(source, split.body);
  const promptsSection = findSection(outline, 'Node Prompts');
  const promptsIndex = promptsSection ? outline.sections.indexOf(promptsSection) : outline.sections.length;
  const systemPromptSections = outline.sections.slice(0, promptsIndex);

  const flowchart = readFlowchart(source, findSection(outline, 'SOP Flowchart'), diagnostics);

  let prompts: NodePromptsResult = { form: 'none', prompts: [], diagnostics: [] };
  if (promptsSection) {
    prompts = parseNodePrompts(source, promptsSection);
    diagnostics.push(...prompts.diagnostics);
  } else {
    diagnostics.push(
      diagnosticAt(
        file,
        'SOP016',
        endOfFile(source),
        'The file has no `## Node Prompts` section.',
        'Add `## Node Prompts` after the flowchart, with one `### NODE_ID` subsection per node that needs instructions (it may be empty).',
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
    diagnostics,
  };
}

function readFlowchart(source: SourceText, section: MarkdownSection | undefined, diagnostics: Diagnostic[]): ParsedFlowchart | null {
  const file = source.file;
  if (!section) {
    diagnostics.push(
      diagnosticAt(
        file,
        'SOP010',
        endOfFile(source),
        'The file has no `## SOP Flowchart` section.',
        'Add a `## SOP Flowchart` section with a ```mermaid block holding a `flowchart TD`.',
      ),
    );
    return null;
  }
  const code = section.children.find((c) => c.type === 'code' && c.lang === 'mermaid');
  if (code?.type !== 'code') {
    diagnostics.push(
      diagnosticAt(
        file,
        'SOP011',
        section.headingSpan,
        'The `## SOP Flowchart` section has no ```mermaid block.',
        'Put the flowchart in a fenced block whose info string is `mermaid`.',
      ),
    );
    return null;
  }
  const at = codeContentStart(code);
  const toFile = (span: BlockSpan): SourceSpan => ({
    start: { line: span.start.line + at.line - 1, column: span.start.column + at.column - 1 },
    end: { line: span.end.line + at.line - 1, column: span.end.column + at.column - 1 },
  });
  const result = parseFlowchart(code.value, at);
  for (const problem of result.problems) {
    diagnostics.push(diagnosticAt(file, problem.code, toFile(problem.span), problem.message, problem.remediation));
  }
  if (!result.ast) return null;
  return { source: code.value, span: spanOfNode(code), ast: result.ast, toFile };
}

function endOfFile(source: SourceText): { line: number; column: number } {
  return { line: Math.max(1, source.lineStarts.length), column: 1 };
}
