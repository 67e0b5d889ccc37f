/**
 * The compiler's limits: what keeps the cost of compiling any input bounded (time linear in its size; under 100 MB
 * of memory above Node and the libraries a build loads, for any file up to 5 MB, measured by `npm run fuzz`), each far
 * above what a SOP needs. An input over a limit
 * gets SOP092 at the place that crosses it (for nesting, the deepest point), never a hang or a crash. The YAML and
 * flowchart limits bound the parsers (the `yaml` package and the flowchart parser hold 100 to 400 bytes per input
 * byte); the file and graph limits bound what is emitted. `docs/sop-format.md` ("Compiler limits") lists them, and a
 * test checks both agree.
 */
export const LIMITS = {
  /**
   * Characters in one SOP file. A large real SOP is 30 KB; 2 MiB is about 500,000 tokens of instructions, more
   * than a model reads. Measured: `sop build --check` of a valid 3 MB SOP peaks at 195 MB, of a 4 MB one at 213 MB
   * (its prompts are carried into two generated files and printed); a larger file is refused at once.
   */
  fileCharacters: 2 * 1024 * 1024,
  /** Top-level headings and code blocks in the markdown (a SOP of 500 nodes, each with a prompt, has 1,000). */
  markdownBlocks: 10_000,
  /** Block quotes and list items open inside one another (markdown written by people nests a few deep). */
  markdownNesting: 100,
  /** Characters in one YAML block: the frontmatter, a node's ```yaml block, or the `node_prompts:` map. */
  yamlCharacters: 256 * 1024,
  /** Nesting depth of a YAML block, aliases expanded (a SOP's YAML nests 4 deep). */
  yamlDepth: 64,
  /** Values that aliases may add to a YAML block when expanded (what an alias bomb multiplies). */
  yamlAliasValues: 100_000,
  /** Characters in the ```mermaid block. Mermaid itself refuses to draw more than 50,000 by default. */
  flowchartCharacters: 256 * 1024,
  /**
   * Nodes and edges of the flowchart (Mermaid draws at most 500 edges by default; an agent reads the chart). With the
   * file limit, they bound what is emitted: a 5 MB SOP of 950 nodes took the in-process build to 204 MB.
   */
  flowchartNodes: 500,
  flowchartEdges: 2_500,
  /**
   * Characters in an agent's name: it names a folder of the build's output (`generated/<agent>/`), and file systems
   * refuse a name over 255 bytes (an agent named with 7,654 characters failed the build with ENAMETOOLONG).
   */
  agentNameCharacters: 128,
  /** Diagnostics reported per file; the rest are counted in a final SOP091. */
  diagnosticsPerFile: 200,
} as const;
