/**
 * The language server's view of the SOPs: the documents the editor has open, the projects they belong to, and
 * the diagnostics last published for each file. Everything is compiled through the build API (`generator/project/`):
 * a document's unsaved text compiles exactly as its file would, and a project's check reports per file what
 * `sop build` reports (the file's own diagnostics, the cross-file checks, token budgets).
 *
 * - A document belongs to the project found from its folder (`locate`: the nearest package.json and its
 *   `sop.config.json`). A SOP of that project (a `.md` in its SOP folder) is checked with the others: the files no
 *   editor has open are read from disk once, and again when they change there (`watchSources`); their diagnostics
 *   are published too, so a duplicate agent shows in both files. A markdown file outside the SOP folder is compiled
 *   on its own when it starts with a frontmatter (`---`), and left alone otherwise (a README is no SOP).
 * - Diagnostics follow a change at once when the document was quiet: the check starts as soon as the server is
 *   free, so an edit costs about one compile of its file (the bench measures it), and less: the compile reuses the
 *   parse of every YAML block the edit left unchanged (`generator/parse/yaml/yaml-reuse.ts`). Changes that arrive while a check
 *   runs mean the author is typing: they are folded into one more check, made once the keys pause for 40 ms, so
 *   typing never queues a compile per key. Diagnostics of a version the editor has already replaced are not published.
 * - A request (hover, rename, …) compiles the document's current text if the check has not yet: it never waits for
 *   the cross-file check, and a compile is never done twice for one text (the project caches it by hash).
 */
import { dirname } from 'node:path';
import type { ProjectLayout, ProjectSource } from '../../generator/project/read-sources.js';
import { openProject, type SopProject } from '../../generator/project/open-project.js';
import { type SourceWatch, watchSources } from '../../generator/project/watch-sources.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { type SopDocument, sopDocument } from '../document/sop-document.js';

/** The project a folder belongs to: its layout, or the defaults with the reason its config could not be read. */
export type Locate = (dir: string) => { readonly layout: ProjectLayout; readonly problem?: string };

export interface WorkspaceOptions {
  readonly locate: Locate;
  /** Publishes a file's diagnostics (`version` for an open document's). */
  readonly publish: (path: string, version: number | undefined, diagnostics: readonly Diagnostic[]) => void;
  readonly log: (message: string) => void;
  /** Tells the author something once (a config file that cannot be read). */
  readonly warn: (message: string) => void;
}

export interface Workspace {
  open(path: string, text: string, version: number): void;
  change(path: string, text: string, version: number): void;
  close(path: string): void;
  /** The document at `path` as compiled from its current text, or undefined when it is not an open SOP. */
  document(path: string): Promise<SopDocument | undefined>;
  /** The diagnostics last checked with the project for the open document at `path`, if they are of its current text. */
  checked(path: string): readonly Diagnostic[] | undefined;
  /** Resolves once every check started so far has published (tests, the bench). */
  settled(): Promise<void>;
  dispose(): void;
}

interface OpenDocument {
  readonly path: string;
  text: string;
  version: number;
  /** The project file name. */
  readonly file: string;
  readonly state: ProjectState;
  /** A SOP of its project (else it is compiled on its own). */
  readonly source: boolean;
}

interface ProjectState {
  readonly project: SopProject;
  /** The project's SOPs as on disk (null until read; never for a lone document's project). */
  disk: readonly ProjectSource[] | null;
  watch: SourceWatch | null;
  readonly documents: Set<OpenDocument>;
  /** What was last published per absolute path. */
  readonly published: Map<string, string>;
  running: Promise<void> | null;
  again: boolean;
  /** When the last change came (performance.now()). */
  lastChange: number;
}

/** How long the keys must pause, while changes keep coming, before the next check. */
const TYPING_PAUSE_MS = 40;

/**
 * Lets the messages waiting on stdin be read and handled (the JSON-RPC library handles one per turn of the event
 * loop; a millisecond is hundreds of turns), so that the changes already sent are seen before the next check.
 */
function drain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

/** Resolves once no change has come for `TYPING_PAUSE_MS`. */
async function quiet(state: ProjectState): Promise<void> {
  for (let wait = TYPING_PAUSE_MS; wait > 0; wait = state.lastChange + TYPING_PAUSE_MS - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

export function createWorkspace(options: WorkspaceOptions): Workspace {
  const documents = new Map<string, OpenDocument>();
  const projects = new Map<string, ProjectState>();
  /** Per open document, the text its project's last check saw and the diagnostics it gave. */
  const lastChecked = new Map<string, { readonly text: string; readonly diagnostics: readonly Diagnostic[] }>();
  const warned = new Set<string>();

  const stateFor = (path: string): { state: ProjectState; source: boolean } => {
    const located = options.locate(dirname(path));
    if (located.problem !== undefined && !warned.has(located.problem)) {
      warned.add(located.problem);
      options.warn(`sop lsp: ${located.problem}; using the default folders (sops, generated)`);
    }
    const probe = openProject(located.layout);
    const source = probe.isSource(path);
    // A lone document gets a project of its own: checking it must not evict the SOPs of the real one.
    const key = source ? `project\0${located.layout.sopsDir}` : `alone\0${path}`;
    let state = projects.get(key);
    if (state === undefined) {
      state = {
        project: probe,
        disk: null,
        watch: null,
        documents: new Set(),
        published: new Map(),
        running: null,
        again: false,
        lastChange: 0,
      };
      projects.set(key, state);
      if (source) startWatching(state);
    }
    return { state, source };
  };

  const startWatching = (state: ProjectState) => {
    try {
      state.watch = watchSources(
        state.project.layout.sopsDir,
        () => {
          state.disk = null;
          schedule(state);
        },
        { onError: (error) => options.log(`sop lsp: watching ${state.project.layout.sopsDir} failed: ${String(error)}`) },
      );
    } catch (error) {
      options.log(
        `sop lsp: cannot watch ${state.project.layout.sopsDir} (${String(error)}): files changed outside the editor are seen on the next edit`,
      );
    }
  };

  const isSop = (doc: OpenDocument) => doc.source || doc.text.startsWith('---');

  const compiled = async (doc: OpenDocument): Promise<SopDocument> => {
    const text = doc.text;
    return sopDocument(doc.file, text, await doc.state.project.compileDocument(doc.file, text));
  };

  const schedule = (state: ProjectState) => {
    state.lastChange = performance.now();
    if (state.running !== null) {
      state.again = true;
      return;
    }
    state.running = (async () => {
      // The change notifications handled in this turn of the event loop are folded into this check.
      await new Promise((resolve) => setImmediate(resolve));
      do {
        state.again = false;
        try {
          await check(state);
        } catch (error) {
          options.log(
            `sop lsp: internal error while checking (the server goes on): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
        }
        // A check holds the thread: the changes sent meanwhile are read now. If there are some, the author is
        // typing: check again once the keys pause.
        await drain();
        if (state.again) await quiet(state);
      } while (state.again);
      state.running = null;
    })();
  };

  const check = async (state: ProjectState) => {
    const open = [...state.documents].filter(isSop);
    const versions = new Map(open.map((d) => [d, d.version]));
    const texts = new Map(open.map((d) => [d, d.text]));
    const { project } = state;
    // The open documents first, with their parse (what hover and rename need next); the check reuses them, and takes
    // each one's hash from its compile (the compile hashes the text to find it in the cache: hashing it here too
    // was a second SHA-256 of the document per keystroke).
    const edited: ProjectSource[] = [];
    for (const d of open) {
      const raw = texts.get(d)!;
      const { compiled } = await project.compileDocument(d.file, raw);
      edited.push({ file: d.file, raw, sourceHash: compiled.sourceHash });
    }
    let sources: ProjectSource[];
    if (open.some((d) => d.source) || state.disk !== null) {
      state.disk ??= project.readSources();
      const merged = new Map(state.disk.map((s) => [s.file, s]));
      for (const s of edited) merged.set(s.file, s);
      sources = [...merged.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    } else {
      sources = edited;
    }
    const result = await project.check(sources);
    const openByFile = new Map(open.map((d) => [d.file, d]));
    const files = new Set([...result.diagnostics.keys(), ...[...state.published.keys()].map((p) => project.fileOf(p))]);
    for (const file of files) {
      const doc = openByFile.get(file);
      // A newer version is on its way: its own check publishes.
      if (doc !== undefined && (doc.version !== versions.get(doc) || documents.get(doc.path) !== doc)) continue;
      const diagnostics = result.diagnostics.get(file) ?? [];
      if (doc !== undefined) lastChecked.set(doc.path, { text: texts.get(doc)!, diagnostics });
      publish(state, project.pathOf(file), doc?.version, diagnostics);
    }
  };

  const publish = (state: ProjectState, path: string, version: number | undefined, diagnostics: readonly Diagnostic[]) => {
    const key = JSON.stringify(diagnostics);
    // An open document's diagnostics go out for every version it reaches; a closed file's only when they change.
    if (version === undefined && state.published.get(path) === key) return;
    if (diagnostics.length === 0 && version === undefined && !state.published.has(path)) return;
    if (diagnostics.length === 0) state.published.delete(path);
    else state.published.set(path, key);
    options.publish(path, version, diagnostics);
  };

  return {
    open(path, text, version) {
      const { state, source } = stateFor(path);
      const doc: OpenDocument = { path, text, version, file: state.project.fileOf(path), state, source };
      documents.set(path, doc);
      state.documents.add(doc);
      if (isSop(doc)) schedule(state);
    },
    change(path, text, version) {
      const doc = documents.get(path);
      if (doc === undefined) return this.open(path, text, version);
      doc.text = text;
      doc.version = version;
      if (isSop(doc) || doc.state.published.has(path)) schedule(doc.state);
    },
    close(path) {
      const doc = documents.get(path);
      if (doc === undefined) return;
      documents.delete(path);
      lastChecked.delete(path);
      doc.state.documents.delete(doc);
      if (doc.source)
        schedule(doc.state); // its file on disk is checked again, as it is there
      else {
        publish(doc.state, path, undefined, []);
        doc.state.watch?.close();
        for (const [key, s] of projects) if (s === doc.state && s.documents.size === 0) projects.delete(key);
      }
    },
    async document(path) {
      const doc = documents.get(path);
      if (doc === undefined || !isSop(doc)) return undefined;
      return compiled(doc);
    },
    checked(path) {
      const doc = documents.get(path);
      const last = lastChecked.get(path);
      return doc !== undefined && last !== undefined && last.text === doc.text ? last.diagnostics : undefined;
    },
    async settled() {
      for (;;) {
        const running = [...projects.values()].flatMap((s) => (s.running === null ? [] : [s.running]));
        if (running.length === 0) return;
        await Promise.all(running);
      }
    },
    dispose() {
      for (const state of projects.values()) state.watch?.close();
      projects.clear();
      documents.clear();
    },
  };
}
