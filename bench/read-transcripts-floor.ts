/**
 * The floor the log-reading rows (replay, discover) are measured against: listing a folder of transcripts as
 * `sop replay DIR` lists it, reading and parsing each file (`readTranscripts`), and each answer's JSON text parsed
 * once (reading a transcript with its answers reads them too). Returns the transcripts read.
 */
import { readFileSync } from 'node:fs';
import { answerValue } from '../contract/run/call-results.js';
import { readTranscripts } from '../analysis/replay/read-conversation.js';
import { listInputs } from '../analysis/replay/replay-batch.js';

export function readTranscriptsFloor(dir: string, known: ReadonlySet<string>): number {
  const listed = listInputs([dir]);
  if (!listed.ok) throw new Error(listed.error);
  let transcripts = 0;
  for (const file of listed.files) {
    const result = readTranscripts(readFileSync(file.path, 'utf8'), known);
    if (!result.ok) throw new Error(`${file.path}: ${result.error}`);
    transcripts += result.transcripts.length;
    for (const transcript of result.transcripts)
      for (const event of transcript.conversation.events)
        if (event.kind === 'call' && event.result !== undefined) answerValue(event.result);
  }
  return transcripts;
}
