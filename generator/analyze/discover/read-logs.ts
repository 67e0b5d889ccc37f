/**
 * The logs `sop discover` mines, read the way `sop replay` reads a batch (`listInputs`, `readTranscripts`): every
 * format replay reads, a folder recursively in name order, several conversations per file where the file holds
 * them. One file at a time, so a pass over the logs keeps nothing of a file once its conversations were visited:
 * mining reads the logs twice (once to mine, once to score the draft) rather than hold them.
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
      for (const transcript of read.transcripts) {
        const id = transcript.id ?? transcript.session?.id ?? undefined;
        const { outcome, key } = outcomeOf(input.outcomes, outcomeKeys(shown, transcript.id, id), transcript.reward);
        if (key !== null) problems.matchedKeys.add(key);
        visit({ name: transcript.id === undefined ? shown : `${shown}#${transcript.id}`, transcript, success: outcome });
      }
    }
    if (input.progress !== undefined && (done + 1) % every === 0) input.progress(done + 1, listed.files.length);
  }
  if (input.progress !== undefined && listed.files.length % every !== 0) input.progress(listed.files.length, listed.files.length);
  return { ok: true, problems };
}
