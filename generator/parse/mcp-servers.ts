/**
 * The rules of a frontmatter `mcp_servers` entry beyond its shape (the zod schema in `frontmatter.ts`), each at
 * the line of the key it is about:
 *   - SOP060: a server is reached over stdio (`command`, with `args`, `env`, `cwd`) or over Streamable HTTP
 *     (`url`, with `headers`): exactly one of `command` and `url`, and no key of the other kind;
 *   - SOP061: two servers with one name (the gateway's errors and audit log name servers);
 *   - SOP062: a secret written into the SOP: a credential header, a credential-looking environment variable, or
 *     a password in the URL, given literally instead of as `${VAR}` from the gateway's environment;
 *   - SOP063: a malformed `${...}` reference.
 * Why secrets are refused rather than warned about: the SOP is committed, compiled into `generated/` and
 * shipped in the bundle and the one-file server; a token written there has leaked.
 */
import { parseEnvRefs } from '../../contract/env-refs.js';
import type { McpServerRef } from '../../contract/compiled-sop.js';
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { YamlBlock } from './yaml-block.js';

const STDIO_KEYS = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_KEYS = ['url', 'headers', 'transport'] as const;
/** Header names that carry credentials. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password|auth/i;
/** Environment variable names that hold credentials. */
const CREDENTIAL_ENV = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|CREDENTIAL|AUTH/i;
/** Query parameters that carry credentials in a URL. */
const CREDENTIAL_QUERY = /[?&](access_token|token|api[-_]?key|key|secret|password|sig)=(?!\$\{)/i;

export function checkMcpServers(file: string, yaml: YamlBlock, servers: readonly McpServerRef[], sink: DiagnosticSink): void {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    const at = (...path: (string | number)[]) => yaml.spanOf(['mcp_servers', index, ...path]);
    const keyAt = (key: string) => yaml.spanOf(['mcp_servers', index, key], { key: true });
    if (seen.has(server.name)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP061',
          at('name'),
          `Two servers in \`mcp_servers\` are named ${quoted(server.name)}.`,
          'Give each server its own name: the gateway names servers in its errors and audit log.',
        ),
      );
    }
    seen.add(server.name);
    const has = (key: keyof McpServerRef) => server[key] !== undefined;
    if (has('command') === has('url')) {
      sink.push(
        diagnosticAt(
          file,
          'SOP060',
          yaml.spanOf(['mcp_servers', index]),
          has('command')
            ? `Server ${quoted(server.name)} has both \`command\` and \`url\`.`
            : `Server ${quoted(server.name)} has neither \`command\` nor \`url\`.`,
          'Give a stdio server a `command` (with `args`, `env`, `cwd`), or an HTTP server a `url` (with `headers`).',
        ),
      );
    } else {
      const [mine, theirs, kind] = has('command') ? [STDIO_KEYS, HTTP_KEYS, 'stdio'] : [HTTP_KEYS, STDIO_KEYS, 'HTTP'];
      for (const key of theirs) {
        if (!has(key)) continue;
        sink.push(
          diagnosticAt(
            file,
            'SOP060',
            keyAt(key),
            `\`${key}\` does not apply to the ${kind} server ${quoted(server.name)}.`,
            `A ${kind} server takes ${mine.map((k) => `\`${k}\``).join(', ')}.`,
          ),
        );
      }
    }
    for (const [text, path] of valuesOf(server)) {
      const parsed = parseEnvRefs(text);
      if (!parsed.ok) sink.push(diagnosticAt(file, 'SOP063', at(...path), `In server ${quoted(server.name)}: ${parsed.error}.`));
    }
    for (const [name, value] of Object.entries(server.headers ?? {})) {
      if (CREDENTIAL_HEADER.test(name) && isLiteral(value)) {
        sink.push(secret(file, at('headers', name), `The header ${quoted(name)} of server ${quoted(server.name)}`, name));
      }
    }
    for (const [name, value] of Object.entries(server.env ?? {})) {
      if (CREDENTIAL_ENV.test(name) && isLiteral(value)) {
        sink.push(secret(file, at('env', name), `The variable ${quoted(name)} of server ${quoted(server.name)}`, name));
      }
    }
    if (server.url !== undefined && (hasPasswordInUrl(server.url) || CREDENTIAL_QUERY.test(server.url))) {
      sink.push(secret(file, at('url'), `The url of server ${quoted(server.name)}`, 'MCP_URL'));
    }
  });
}

function secret(file: string, span: ReturnType<YamlBlock['spanOf']>, what: string, name: string) {
  const variable = name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return diagnosticAt(
    file,
    'SOP062',
    span,
    `${what} holds a secret written into the SOP: it would be committed, compiled into generated/ and shipped in the bundle.`,
    `Put it in the gateway's environment and write \`\${${variable}}\` (e.g. \`Bearer \${${variable}}\`).`,
  );
}

/** A non-empty value with no `${...}` reference in it. */
function isLiteral(value: string): boolean {
  if (value.trim() === '') return false;
  const parsed = parseEnvRefs(value);
  return !parsed.ok || parsed.parts.every((part) => part.kind === 'text');
}

function hasPasswordInUrl(url: string): boolean {
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(url)?.[1];
  return userinfo?.includes(':') === true && isLiteral(userinfo.slice(userinfo.indexOf(':') + 1));
}

/** Every string value of a server that may hold references, with its path in the entry. */
function valuesOf(server: McpServerRef): [string, (string | number)[]][] {
  const values: [string, (string | number)[]][] = [];
  if (server.url !== undefined) values.push([server.url, ['url']]);
  if (server.command !== undefined) values.push([server.command, ['command']]);
  if (server.cwd !== undefined) values.push([server.cwd, ['cwd']]);
  for (const [i, arg] of (server.args ?? []).entries()) values.push([arg, ['args', i]]);
  for (const [name, value] of Object.entries(server.headers ?? {})) values.push([value, ['headers', name]]);
  for (const [name, value] of Object.entries(server.env ?? {})) values.push([value, ['env', name]]);
  return values;
}
