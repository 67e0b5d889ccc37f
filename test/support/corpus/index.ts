/**
 * A corpus of retail SOP conversations with the real domain server's answers, for tests and the bench
 * (README.md beside this file).
 */
export type { Act, Role, Todo } from './acts.js';
export { type CorpusEntry, type CorpusOptions, corpus, FORMATS, type Format, MODES, repositoryRetailSop } from './corpus.js';
export { DECLARED_ONLY, type Label, PLANTED_KINDS, type PlantedKind } from './plant.js';
export { type CorpusCall, lostAnswer, type Mode } from './record.js';
export { openRetailDomain, RETAIL_TOOL_NAMES, type RetailDomain, retailSeedText } from './retail-domain.js';
export { writeAnthropicMessages } from './writers/anthropic-messages.js';
export { writeClaudeCode } from './writers/claude-code.js';
export { openaiChatMessages, writeOpenaiChat } from './writers/openai-chat.js';
export { writeOpenaiResponses } from './writers/openai-responses.js';
export { type Tau2Options, tau2Simulation, writeTau2Results, writeTau2Simulation } from './writers/tau2.js';
export type { Turn, WriteOptions } from './writers/turns.js';
