/**
 * The logs `sop discover` mines, read the way `sop replay` reads a batch (`listInputs`, `readTranscripts`): every
 * format replay reads, a folder recursively in name order, several conversations per file where the file holds
 * them. One file at a time. Mining goes over the logs twice (once to mine, once to score the draft): the first pass
 * keeps the conversations it read (`KeptLogs`) up to a budget (KEPT_BYTES, about 64 MB of what they said and
 * answered), so the second reads again only the files that did not fit; memory stays bounded whatever the logs
 * weigh.
 *
 * A file found in a folder that holds no conversation (an outcomes file, a τ²-bench index) is skipped and listed; a
 * file named on the command line that holds none is an error of that file. Neither stops the others.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { outcomeKeys, outcomeOf, type OutcomeTable } from '../replay/batch-outcomes.js';
import { readTranscripts, type Transcript } from '../replay/read-conversation.js';
import { listInputs } from '../replay/replay-batch.js';

/** One conversation of the logs, with its name as reports show it and its outcome (null when nothing says). */
export interface LoggedConversation {
  /** `logs/a.json`, or `logs/results.json#sim-7` for one of several in a file. */
  readonly name: string;
  readonly transcript: Transcript;
  readonly success: boolean | null;
}

export interface LogProblems {
  /** Files that could not be read or hold no conversation though named: `{file, error}`. */
  readonly errors: { readonly file: string; readonly error: string }[];
  /** Files found in a folder that hold no conversation. */
  readonly skipped: { readonly file: string; readonly reason: string }[];
  /** Outcome keys that matched a conversation. */
  readonly matchedKeys: Set<string>;
}

/** What the first pass keeps for the second, at most (estimated: the characters of what was said and answered). */
export const KEPT_BYTES = 64 * 1024 * 1024;

/** The conversations of the files read so far, per file, while they fit in the budget. */
export class KeptLogs {
  private readonly files = new Map<string, readonly LoggedConversation[]>();
  private bytes = 0;
  private full = false;

  constructor(private readonly budget: number = KEPT_BYTES) {}

  /** Keeps a file's conversations, unless the budget is spent (then no later file is kept either). */
  keep(path: string, conversations: readonly LoggedConversation[]): void {
    if (this.full) return;
    const size = conversations.reduce((sum, c) => sum + sizeOf(c.transcript), 0);
    if (this.bytes + size > this.budget) {
      this.full = true;
      return;
    }
    this.bytes += size;
    this.files.set(path, conversations);
  }

  get(path: string): readonly LoggedConversation[] | undefined {
    return this.files.get(path);
  }
}

/** About what a transcript holds: its texts and answers, and a little per event. */
function sizeOf(transcript: Transcript): number {
  let size = 256;
  for (const event of transcript.conversation.events) {
    size += 64;
    if (event.kind !== 'call') size += event.text.length;
    else size += 64 + (event.result?.text?.length ?? 0) + (event.result?.structured === undefined ? 0 : 256);
  }
  return size;
}

export interface ReadLogsInput {
  readonly inputs: readonly string[];
  /** Names are shown relative to it. */
  readonly root: string;
  /** Tool names a reader should recognise behind a client's prefix. */
  readonly known: ReadonlySet<string>;
  readonly outcomes?: OutcomeTable;
  /** Told after every `every` files. */
  readonly progress?: (done: number, files: number) => void;
  readonly every?: number;
  /** Keep what is read here for a later pass (`keep`), or take files from what an earlier pass kept (`kept`). */
  readonly keep?: KeptLogs;
  readonly kept?: KeptLogs;
}

/**
 * Visits every conversation of the inputs in order (the same order on every pass). Returns the problems met, or the
 * error that stops everything (an input that does not exist).
 */
export function readLogs(
  input: ReadLogsInput,
  visit: (conversation: LoggedConversation) => void,
): { readonly ok: true; readonly problems: LogProblems } | { readonly ok: false; readonly error: string } {
  const listed = listInputs(input.inputs);
  if (!listed.ok) return listed;
  const problems: LogProblems = { errors: [], skipped: [], matchedKeys: new Set() };
  const every = input.every ?? 100;
  for (const [done, file] of listed.files.entries()) {
    const shown = relative(input.root, file.path).split(sep).join('/');
    const kept = input.kept?.get(file.path);
    if (kept !== undefined) {
      for (const conversation of kept) visit(conversation);
      if (input.progress !== undefined && (done + 1) % every === 0) input.progress(done + 1, listed.files.length);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file.path, 'utf8');
    } catch (error) {
      problems.errors.push({ file: shown, error: `cannot read ${shown} (${(error as NodeJS.ErrnoException).code ?? String(error)})` });
      continue;
    }
    const read = readTranscripts(text, input.known);
    if (!read.ok) {
      if (file.found && /holds no conversation|neither JSON nor JSON Lines/.test(read.error))
        problems.skipped.push({ file: shown, reason: read.error });
      else problems.errors.push({ file: shown, error: `${shown}: ${read.error}` });
    } else {
      const conversations = read.transcripts.map((transcript): LoggedConversation => {
        const id = transcript.id ?? transcript.session?.id ?? undefined;
        const { outcome, key } = outcomeOf(input.outcomes, outcomeKeys(shown, transcript.id, id), transcript.reward);
        if (key !== null) problems.matchedKeys.add(key);
        return { name: transcript.id === undefined ? shown : `${shown}#${transcript.id}`, transcript, success: outcome };
      });
      for (const conversation of conversations) visit(conversation);
      input.keep?.keep(file.path, conversations);
    }
    if (input.progress !== undefined && (done + 1) % every === 0) input.progress(done + 1, listed.files.length);
  }
  if (input.progress !== undefined && listed.files.length % every !== 0) input.progress(listed.files.length, listed.files.length);
  return { ok: true, problems };
}
