// `refdesk mcp --stdio`: the same 20 MCP tools for a local MCP client (Claude Desktop, an IDE), each
// call forwarded over HTTP(S) to a RefDesk server with the key from $REFDESK_API_KEY. stdout carries
// only the MCP protocol; anything else goes to stderr.
import { Command } from 'commander'
import { serveMcpOverStdio } from '../../app.js'
import { ConfigError, mcpBridgeKey, settingsHelp } from '../../config.js'

interface McpFlags {
  stdio?: boolean
  baseUrl: string
}

export function mcpCommand(): Command {
  return new Command('mcp')
    .summary('serve the MCP tools over stdio, forwarding to a RefDesk server')
    .description(
      'Serve the RefDesk MCP tools (one per partner operation) over stdio for a local MCP client. Each tool call is sent to the ' +
        'RefDesk server at --base-url with the key in $REFDESK_API_KEY, so it runs with that key’s scope. ' +
        'stdout carries only MCP messages; errors go to stderr. (Remote MCP clients need no bridge: ' +
        '`refdesk serve` answers MCP over Streamable HTTP at <base-url>/mcp.)',
    )
    .option('--stdio', 'use the stdio transport (required: the only one this command offers)')
    .requiredOption('--base-url <url>', 'the API base, e.g. https://refdesk.example.com/api/v1')
    .addHelpText(
      'after',
      `${settingsHelp('mcp')}\n\nExample:\n  REFDESK_API_KEY=key_… refdesk mcp --stdio --base-url https://refdesk.example.com/api/v1`,
    )
    .action(serveStdio)
}

async function serveStdio(flags: McpFlags): Promise<void> {
  if (!flags.stdio)
    throw new ConfigError('pass --stdio (over HTTP, `refdesk serve` answers MCP at <base-url>/mcp)')
  await serveMcpOverStdio(baseUrl(flags.baseUrl), mcpBridgeKey())
}

function baseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`invalid --base-url: ${value}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`--base-url must be http(s): ${value}`)
  }
  return url.toString()
}
