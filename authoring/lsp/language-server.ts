/**
 * `sop lsp`: a Language Server Protocol server for SOP files, over stdio (`vscode-languageserver`). The documents
 * are the compiler's: every open SOP is compiled through the build API exactly as `sop build` compiles its file
 * (`workspace.ts`), and each feature is a query over what the compiler produced (`../document/`):
 * diagnostics on open and on every change (the compiler's own, exact ranges, codes linked to the format's docs),
 * hover, go to definition, find references, highlights, rename (with prepareRename and refusals), completion, quick
 * fixes from the diagnostics' remediations, and the document outline.
 *
 * It never crashes on a document: the compiler turns any input into diagnostics, and every handler here answers
 * "nothing" and logs, rather than fail, should one of them meet a bug.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  type Connection,
  createConnection,
  LSPErrorCodes,
  ResponseError,
  StreamMessageReader,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SopDocument } from '../document/sop-document.js';
import { codeActionsFor } from './code-actions.js';
import { completionsAt, type NodeItemData } from './completion.js';
import { documentSymbols } from './document-symbols.js';
import { hoverAt, nodeMarkdown } from './hover.js';
import { toLspDiagnostic } from './lsp-diagnostics.js';
import { fromPosition } from './lsp-ranges.js';
import { DirectMessageWriter } from './message-writer.js';
import { definitionAt, highlightsAt, referencesAt } from './navigation.js';
import { prepareRenameAt, renameAt } from './rename.js';
import { toolkitDocsUrl } from './toolkit-docs.js';
import { createWorkspace, type Locate } from './workspace.js';

export interface LanguageServerOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** The project a folder belongs to (the CLI reads `sop.config.json`). */
  readonly locate: Locate;
}

export function startLanguageServer(options: LanguageServerOptions): Connection {
  // Messages out are written at once (`message-writer.ts`), so the connection gets a reader and a writer, not the
  // streams: the input ending (the editor closed it) ends the server here, as the library does when handed streams.
  const connection = createConnection(new StreamMessageReader(options.input), new DirectMessageWriter(options.output));
  let shutdown = false;
  const inputEnded = () => process.exit(shutdown ? 0 : 1);
  options.input.on('end', inputEnded);
  options.input.on('close', inputEnded);
  const documents = new TextDocuments(TextDocument);
  const docsUrl = toolkitDocsUrl();
  const uris = new Map<string, string>();
  const log = (message: string) => connection.console.error(message);
  const workspace = createWorkspace({
    locate: options.locate,
    log,
    warn: (message) => void connection.window.showWarningMessage(message),
    publish(path, version, diagnostics) {
      const uri = uris.get(path) ?? pathToFileURL(path).href;
      void connection.sendDiagnostics({
        uri,
        ...(version === undefined ? {} : { version }),
        diagnostics: diagnostics.map((d) => toLspDiagnostic(d, docsUrl)),
      });
    },
  });
  /** The last version of each document whose flowchart parsed: completion offers its nodes while the chart is broken. */
  const lastParsed = new Map<string, SopDocument>();

  const pathOf = (uri: string): string | null => {
    if (!uri.startsWith('file:')) return null;
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  };
  const documentAt = async (uri: string): Promise<SopDocument | undefined> => {
    const path = pathOf(uri);
    if (path === null) return undefined;
    const document = await workspace.document(path);
    if (document !== undefined && document.index().nodes.size > 0) lastParsed.set(path, document);
    return document;
  };
  /** Runs a request handler; a bug in it answers `fallback` and is logged, never taking the server down. */
  const guard = <T>(name: string, fallback: T, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      log(`sop lsp: ${name} failed (answered with nothing): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return fallback;
    });

  connection.onInitialize(() => ({
    capabilities: {
      positionEncoding: 'utf-16',
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentHighlightProvider: true,
      renameProvider: { prepareProvider: true },
      completionProvider: { triggerCharacters: [' ', '[', ',', '>', '|', '&', '#'], resolveProvider: true },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      documentSymbolProvider: true,
    },
    serverInfo: { name: 'sop-toolkit', version: '0.1.0' },
  }));

  documents.onDidChangeContent(({ document }) => {
    const path = pathOf(document.uri);
    if (path === null) return;
    uris.set(path, document.uri);
    try {
      workspace.change(path, document.getText(), document.version);
    } catch (error) {
      log(`sop lsp: could not take the change of ${document.uri}: ${String(error)}`);
    }
  });
  documents.onDidClose(({ document }) => {
    const path = pathOf(document.uri);
    if (path === null) return;
    lastParsed.delete(path);
    try {
      workspace.close(path);
    } catch (error) {
      log(`sop lsp: could not close ${document.uri}: ${String(error)}`);
    }
  });

  connection.onHover(({ textDocument, position }) =>
    guard('hover', null, async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? null : hoverAt(document, fromPosition(position), docsUrl);
    }),
  );
  connection.onDefinition(({ textDocument, position }) =>
    guard('definition', [], async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? [] : definitionAt(document, fromPosition(position), textDocument.uri);
    }),
  );
  connection.onReferences(({ textDocument, position, context }) =>
    guard('references', [], async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? [] : referencesAt(document, fromPosition(position), textDocument.uri, context.includeDeclaration);
    }),
  );
  connection.onDocumentHighlight(({ textDocument, position }) =>
    guard('highlight', [], async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? [] : highlightsAt(document, fromPosition(position));
    }),
  );
  connection.onPrepareRename(async ({ textDocument, position }) => {
    const outcome = await guard('prepareRename', null, async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? null : prepareRenameAt(document, fromPosition(position));
    });
    if (outcome === null) return null;
    if (!outcome.ok) return new ResponseError(LSPErrorCodes.RequestFailed, outcome.reason);
    return outcome.value;
  });
  connection.onRenameRequest(async ({ textDocument, position, newName }) => {
    const outcome = await guard('rename', null, async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? null : renameAt(document, fromPosition(position), newName, textDocument.uri);
    });
    if (outcome === null) return new ResponseError(LSPErrorCodes.RequestFailed, 'This document is not a SOP the server knows.');
    if (!outcome.ok) return new ResponseError(LSPErrorCodes.RequestFailed, outcome.reason);
    return outcome.value;
  });
  connection.onCompletion(({ textDocument, position }) =>
    guard('completion', [], async () => {
      const document = await documentAt(textDocument.uri);
      const path = pathOf(textDocument.uri);
      if (document === undefined || path === null) return [];
      return completionsAt(document, fromPosition(position), path, lastParsed.get(path), docsUrl);
    }),
  );
  connection.onCompletionResolve((item) =>
    guard('completion resolve', item, async () => {
      const data = item.data as NodeItemData | undefined;
      if (data === undefined || typeof data.path !== 'string' || typeof data.node !== 'string') return item;
      const document = await workspace.document(data.path);
      const details = (document ?? lastParsed.get(data.path))?.queries()?.details(data.node);
      return details === undefined ? item : { ...item, documentation: { kind: 'markdown', value: nodeMarkdown(details) } };
    }),
  );
  connection.onCodeAction(({ textDocument, range }) =>
    guard('code actions', [], async () => {
      const document = await documentAt(textDocument.uri);
      if (document === undefined) return [];
      const path = pathOf(textDocument.uri);
      return codeActionsFor(document, range, textDocument.uri, docsUrl, path === null ? undefined : workspace.checked(path));
    }),
  );
  connection.onDocumentSymbol(({ textDocument }) =>
    guard('document symbols', [], async () => {
      const document = await documentAt(textDocument.uri);
      return document === undefined ? [] : documentSymbols(document);
    }),
  );
  connection.onShutdown(() => {
    shutdown = true;
    workspace.dispose();
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
